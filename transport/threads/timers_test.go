package threads_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/internal/pipenet"
	"yui/transport/threads"
	"yui/transport/threads/threadserver"
)

// pipeEnv is a transport and a runtime in a synctest bubble, over an
// in-memory network: fake time runs only when everything waits.
type pipeEnv struct {
	t   *testing.T
	srv *threadserver.Server
	tr  *threads.Transport
	rec *rec
	log *logBuf
}

func newPipeEnv(t *testing.T, b threadserver.Behaviour, agent threadserver.Agent, wrap func(http.Handler) http.Handler) *pipeEnv {
	t.Helper()
	srv := threadserver.New(threadserver.Config{Key: testKey, Agent: agent, Behaviour: b})
	var h http.Handler = srv
	if wrap != nil {
		h = wrap(srv)
	}
	ln, stop := pipenet.Serve(h)
	e := &pipeEnv{t: t, srv: srv, rec: newRec(), log: &logBuf{}}
	tr, err := threads.New(threads.Config{
		Endpoint:   func() string { return "http://threads.test" },
		Key:        func() string { return testKey },
		Agent:      func() string { return "yui-test" },
		OnStatus:   e.rec.onStatus,
		HTTPClient: ln.Client(),
		Logger:     slog.New(slog.NewJSONHandler(e.log, nil)),
		Jitter:     func() float64 { return 0.5 },
	})
	if err != nil {
		t.Fatal(err)
	}
	e.tr = tr
	t.Cleanup(func() {
		tr.Close()
		srv.Close()
		stop()
	})
	tr.Start(e.rec.handler())
	synctest.Wait()
	if !e.rec.has("state ready") {
		t.Fatalf("not ready: %q", e.rec.all())
	}
	return e
}

// send sends a typed turn.
func (e *pipeEnv) send(id, text string) {
	e.t.Helper()
	err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: id, Text: text,
		ClientContext: "<client_context>\ntime: now\ntrigger: user message\n</client_context>"})
	if err != nil {
		e.t.Fatalf("send %s: %v", id, err)
	}
}

// after lets d of fake time pass and everything settle.
func after(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func (e *pipeEnv) count(l string) int {
	n := 0
	for _, x := range e.rec.all() {
		if x == l {
			n++
		}
	}
	return n
}

func (e *pipeEnv) retries() []time.Duration {
	e.rec.mu.Lock()
	defer e.rec.mu.Unlock()
	var out []time.Duration
	for _, c := range e.rec.states {
		if c.To == transport.StateReconnecting {
			out = append(out, c.RetryIn)
		}
	}
	return out
}

func TestBackoffValues(t *testing.T) {
	for _, c := range []struct {
		n    int
		r    float64
		want time.Duration
	}{
		{0, 0.5, time.Second}, {1, 0.5, 2 * time.Second}, {4, 0.5, 16 * time.Second}, {5, 0.5, 30 * time.Second},
		{50, 0.5, 30 * time.Second}, {0, 0, 750 * time.Millisecond}, {5, 0.999999, 37499985 * time.Microsecond},
	} {
		if got := threads.Backoff(c.n, c.r); got.Round(10*time.Microsecond) != c.want.Round(10*time.Microsecond) {
			t.Errorf("Backoff(%d, %v) = %v, want %v", c.n, c.r, got, c.want)
		}
	}
}

// TestReconnectSchedule: attempts refused before an open wait 1, 2, 4, 8 s
// (jitter at its middle); three closes before an open make the client
// check the key (good: it goes on); an open brings the delay back to 1 s.
// Each attempt mints its own ticket.
func TestReconnectSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newPipeEnv(t, threadserver.Spec(), nil, nil)
		id := e.tr.Thread()
		e.srv.RefuseUpgrades(4)
		e.srv.DropStreams(id)
		synctest.Wait()
		// Reconnect n waits min(1 s·2^n, 30 s): four refused, the fifth opens.
		for i, d := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second} {
			before := e.srv.Stats(id).Tickets
			after(d - time.Millisecond)
			if got := e.srv.Stats(id).Tickets; got != before {
				t.Fatalf("attempt %d came early (tickets %d → %d)", i+1, before, got)
			}
			after(time.Millisecond)
			if got := e.srv.Stats(id).Tickets; got != before+1 {
				t.Fatalf("attempt %d did not come after %v (tickets %d → %d)", i+1, d, before, got)
			}
		}
		if got, want := e.retries(), []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}; fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("retry delays %v, want %v", got, want)
		}
		if n := e.srv.KeyChecks(); n != 1 {
			t.Errorf("key checks %d, want 1 (after the third close before an open)", n)
		}
		if e.count("state ready") != 2 {
			t.Fatalf("not ready again: %q", e.rec.all())
		}
		// An open resets the schedule.
		e.srv.DropStreams(id)
		synctest.Wait()
		if r := e.retries(); r[len(r)-1] != time.Second {
			t.Errorf("delay after an open: %v, want 1s", r[len(r)-1])
		}
		after(time.Second)
		if e.count("state ready") != 3 {
			t.Fatalf("no reconnect 1 s after the open socket closed: %q", e.rec.all())
		}
		if st := e.srv.Stats(id); st.Reads != st.Opens {
			t.Errorf("%d catch-up reads for %d opens: want exactly one per connect", st.Reads, st.Opens)
		}
	})
}

// TestKeyCheckStopsRetries: upgrades keep being dropped and, after three
// closes before an open, the key check is refused: the client stops,
// showing the key refused, and tries no more.
func TestKeyCheckStopsRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var refuseMe bool
		wrap := func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if refuseMe && r.URL.Path == "/api/auth/me" {
					w.WriteHeader(http.StatusUnauthorized)
					_, _ = w.Write([]byte(`{"error":"Unauthorized"}`))
					return
				}
				h.ServeHTTP(w, r)
			})
		}
		b := threadserver.Legacy()
		b.Refusal = threadserver.RefuseDrop
		e := newPipeEnv(t, b, nil, wrap)
		id := e.tr.Thread()
		refuseMe = true
		e.srv.RefuseUpgrades(1000)
		e.srv.DropStreams(id)
		after(time.Hour)
		if !e.rec.has("state failed unauthorized") {
			t.Fatalf("not stopped on the refused key: %q", e.rec.all())
		}
		if got := e.srv.Stats(id).Refused; got != 3 {
			t.Errorf("%d refused upgrades, want 3 before the key check stopped it", got)
		}
		if n := len(e.log.find("threads.upgrade_dropped")); n != 3 {
			t.Errorf("%d upgrade_dropped lines, want 3", n)
		}
		// The user's reconnect starts the schedule over: three more
		// refusals, the key check, and a stop again.
		e.tr.Reconnect()
		after(time.Hour)
		if got := e.srv.Stats(id).Refused; got != 6 {
			t.Errorf("after Reconnect: %d refused upgrades, want 6", got)
		}
		if n := e.count("state failed unauthorized"); n != 2 {
			t.Errorf("%d stops on the key, want 2", n)
		}
	})
}

// TestHeartbeat: stream_ping after 30 s with nothing from the runtime;
// stream_pong is no frame (not parsed) but keeps the socket alive; a socket
// that stays silent 30 s after its ping is dropped and the client
// reconnects.
func TestHeartbeat(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newPipeEnv(t, threadserver.Spec(), nil, nil)
		id := e.tr.Thread()
		after(threads.HeartbeatIdle - time.Millisecond)
		if n := e.srv.Stats(id).Pings; n != 0 {
			t.Fatalf("pinged after %v of silence", threads.HeartbeatIdle-time.Millisecond)
		}
		after(time.Millisecond)
		if n := e.srv.Stats(id).Pings; n != 1 {
			t.Fatalf("%d pings after 30 s of silence, want 1", n)
		}
		after(threads.HeartbeatIdle)
		if n := e.srv.Stats(id).Pings; n != 2 || e.srv.Stats(id).Opens != 1 {
			t.Fatalf("after an answered ping: %+v, want a second ping on the same socket", e.srv.Stats(id))
		}
		if len(e.log.find("frame_parse_failed")) != 0 {
			t.Error("a pong was read as a frame")
		}
		e.srv.MuteHeartbeats(true)
		after(threads.HeartbeatIdle)
		if e.srv.Stats(id).Opens != 1 {
			t.Fatal("dropped before the unanswered ping's time was up")
		}
		after(threads.HeartbeatIdle)
		stall := e.log.find("network_stall")
		if len(stall) != 1 || stall[0]["stage"] != "heartbeat" {
			t.Errorf("network_stall lines %v", stall)
		}
		after(2 * time.Second)
		if st := e.srv.Stats(id); st.Opens != 2 {
			t.Errorf("%+v: the dead socket was not replaced", st)
		}
	})
}

// TestTurnWait: a turn whose thread says nothing for 240 s hears its wait
// passed (heartbeat answers do not count); a late reply still plays.
func TestTurnWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := make(chan struct{})
		e := newPipeEnv(t, threadserver.Spec(), func(r *threadserver.Reply) {
			select {
			case <-g:
			case <-r.Context().Done():
				return
			}
			r.Say("Sorry, I was slow.")
		}, nil)
		if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		after(threads.TurnWait - time.Millisecond)
		if e.rec.has("1 wait passed rendered=false") {
			t.Fatal("the wait passed early")
		}
		after(time.Millisecond)
		if !e.rec.has("1 wait passed rendered=false") {
			t.Fatalf("no wait report after 240 s: %q", e.rec.all())
		}
		close(g)
		synctest.Wait()
		eq(t, "turn", e.rec.turn("1"), []string{"wait passed rendered=false", "say Sorry, I was slow.", "render-end", "end"})
	})
}

// TestDeletedLateClose: runtime 0.41.12 closes a socket that never sent
// anything only about 10 s after the delete; the client then stops, and
// makes no attempt on the deleted thread.
func TestDeletedLateClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newPipeEnv(t, threadserver.Legacy(), nil, nil)
		id := e.tr.Thread()
		e.srv.Delete(id)
		after(10*time.Second - time.Millisecond)
		if e.rec.has("state failed deleted") {
			t.Fatal("deleted before the runtime closed the socket")
		}
		after(time.Millisecond)
		if !e.rec.has("state failed deleted") {
			t.Fatalf("not deleted after the close: %q", e.rec.all())
		}
		after(time.Hour)
		if st := e.srv.Stats(id); st.Tickets != 1 || st.Refused != 0 {
			t.Errorf("%+v: the client tried the deleted thread again", st)
		}
		if strings.Count(strings.Join(e.rec.all(), "\n"), "state connecting") != 1 {
			t.Errorf("reconnected: %q", e.rec.all())
		}
	})
}

// TestTurnToADeletedThreadSaysSoAtOnce: a turn posted to a thread deleted
// on the runtime (0.41.12 closes the socket only ≈ 10 s later) is answered
// 404; the wire takes the thread as deleted there and then — the state, the
// problem, the turn's plain line — with no fake time passing, drops the
// socket and never tries the thread again. New conversation makes a new one.
func TestTurnToADeletedThreadSaysSoAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newPipeEnv(t, threadserver.Legacy(), nil, nil)
		old := e.tr.Thread()
		e.srv.Delete(old)
		synctest.Wait()
		if e.rec.has("state failed deleted") {
			t.Fatal("deleted before anything said so")
		}
		if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hello?"}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // no time passes
		eq(t, "turn", e.rec.turn("1"), []string{"error " + threads.DeletedLine, "wait socket rendered=false", "end"})
		all := e.rec.all()
		failed, errLine := slices.Index(all, "state failed deleted"), slices.Index(all, "1 error "+threads.DeletedLine)
		if failed < 0 || errLine < failed || !e.rec.has("status "+threads.ProblemDeleted) {
			t.Fatalf("the deleted state is not said first: %q", all)
		}
		if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "2", Text: "x"}); !errors.Is(err, transport.ErrNotReady) {
			t.Errorf("a turn after: %v, want ErrNotReady", err)
		}
		after(time.Hour) // the runtime's late close comes and goes
		if st := e.srv.Stats(old); st.Tickets != 1 || st.Refused != 0 {
			t.Errorf("%+v: the client tried the deleted thread again", st)
		}
		if n := e.count("state failed deleted"); n != 1 || e.count("state connecting") != 1 {
			t.Errorf("states %q", e.rec.all())
		}
		if err := e.tr.Reset(context.Background()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if e.tr.Thread() == old || e.count("state ready") != 2 {
			t.Fatalf("no new thread after the reset: %q", e.rec.all())
		}
	})
}
