package demobackend_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/demobackend"
	"yui/transport"
	"yui/transport/push"
)

// logBuffer is a goroutine-safe log sink.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestPlaybackFrameIsLoggedAndKeyNeverIs(t *testing.T) {
	logs := &logBuffer{}
	cfg := demobackend.Config{Logger: slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	run(t, envOpt{cfg: cfg}, func(e *env) {
		e.turn("100", "error")
		e.after(2 * time.Second)
		if err := e.c.SendPlayback(context.Background(), "100"); err != nil {
			e.t.Fatal(err)
		}
		synctest.Wait()
		out := logs.String()
		for _, want := range []string{`"msg":"demo.playback","chat_id":"yui-0000test","turn_id":"100","ended":"failed"`, `"msg":"demo.turn"`, `"scenario":"error"`} {
			if !strings.Contains(out, want) {
				e.t.Errorf("log lacks %s:\n%s", want, out)
			}
		}
		if strings.Contains(out, testKey) {
			e.t.Errorf("the key reached the log:\n%s", out)
		}
	})
}

func TestWrongKeyIsRefusedWith4401(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := demobackend.New(demobackend.Config{Key: "another-key"})
		defer b.Close()
		var states []push.StateChange
		var mu sync.Mutex
		c, err := push.New(push.Config{
			Endpoint: func() string { return "http://demo.test" }, Key: func() string { return testKey }, ChatID: "yui-0000test",
			Handler:    transport.HandlerFuncs{State: func(s push.StateChange) { mu.Lock(); states = append(states, s); mu.Unlock() }},
			HTTPClient: pushClient(b),
		})
		if err != nil {
			t.Fatal(err)
		}
		c.Start()
		synctest.Wait()
		if c.State() != push.StateFailed {
			t.Fatalf("state %v, want failed", c.State())
		}
		c.Close()
	})
}

func TestCloseEndsRunningTurnsDelegationsAndToolCalls(t *testing.T) {
	blocked := transport.ToolFunc{Name: "look", WaitFor: 15 * time.Second, RunFunc: func(ctx context.Context, _ transport.ToolCall) (string, []string, error) {
		<-ctx.Done()
		return "", nil, ctx.Err()
	}}
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, envOpt{tools: []push.Tool{blocked}})
		e.turn("100", "delegate a long job")
		e.after(3 * time.Second)
		e.turn("101", "look")
		e.after(time.Second) // the look call is in flight, the delegation running
		if got := e.take(); len(got) < 2 || got[len(got)-1] != "  3400 tool_status 101 running look" {
			t.Fatalf("before Close:\n%s", quoteLines(got))
		}
		done := make(chan struct{})
		go func() { e.b.Close(); close(done) }()
		synctest.Wait()
		select {
		case <-done:
		default:
			t.Fatal("Close did not return")
		}
		e.after(time.Minute) // nothing of the backend fires after Close
		e.expect()
		rec := httptest.NewRecorder()
		e.b.ServeHTTP(rec, httptest.NewRequest("GET", "/ws", nil))
		if rec.Code != 503 {
			t.Fatalf("ServeHTTP after Close: %d", rec.Code)
		}
		e.close() // closing again is fine; the bubble checks no goroutine is left
	})
}

func TestTurnAfterCloseStartsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := demobackend.New(demobackend.Config{Key: testKey})
		c := dialRaw(t, b, nil)
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
		c.close()
		if err := b.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
