package threads_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
	"testing/synctest"

	"yui/transport"
	"yui/transport/threads"
	"yui/transport/threads/threadserver"
)

// gate is a point a scripted agent waits at until the test opens it.
type gate chan struct{}

func (g gate) wait(r *threadserver.Reply) bool {
	select {
	case <-g:
		return true
	case <-r.Context().Done():
		return false
	}
}

// TestReplyBothGenerations: one reply with reasoning and a tool plays the
// same over a runtime with thread_status and full records and over one
// without either (partial records, run state from telemetry).
func TestReplyBothGenerations(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				r.Think("Let me see.")
				r.Say("Hi there. I ")
				r.Tool("read_file", true)
				r.Say("found it! It says ", "hello.")
			}})
			e.send("1", "hi")
			e.rec.waitLine(t, "1 end")
			eq(t, "turn", e.rec.turn("1"), []string{
				"reasoning Let me see.",
				"say Hi there.",
				"say I", // the unfinished sentence, said when its message completed
				"tool read_file running",
				"tool read_file done",
				"say found it!",
				"say It says hello.",
				"reasoning-all Let me see.",
				"render-end",
				"end",
			})
			if q := e.srv.LastQuery(); q != "depth=0&reasoning=1" {
				t.Errorf("stream query %q, want depth=0&reasoning=1 (ticket aside)", q)
			}
			if st := e.stats(); st.Reads != 1 || st.Opens != 1 || st.Tickets != 1 {
				t.Errorf("stats %+v: want one ticket, one open, one catch-up read", st)
			}
			for _, s := range e.rec.status {
				if s.Problem != "" {
					t.Errorf("status problem %q", s.Problem)
				}
			}
			if got := e.save; len(got) != 1 || got[0] != e.thread() {
				t.Errorf("saved threads %q, want the one made (%s)", got, e.thread())
			}
			txt := e.log.text()
			if strings.Contains(txt, testKey) || strings.Contains(txt, "ticket=") {
				t.Error("the log holds the key or a ticket")
			}
		})
	}
}

// TestToolFailed: a tool_completed whose status is "error" is the pill's
// failed state; the reply goes on.
func TestToolFailed(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				r.Tool("fetch_page", false)
				r.Say("The page would not load.")
			}})
			e.send("1", "read it")
			e.rec.waitLine(t, "1 end")
			eq(t, "turn", e.rec.turn("1"), []string{
				"tool fetch_page running",
				"tool fetch_page failed",
				"say The page would not load.",
				"render-end",
				"end",
			})
		})
	}
}

// TestEventsLoggedByNameAndSize: event frames, with "data": null or with
// no data key, are logged by name and size, never their data.
func TestEventsLoggedByNameAndSize(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				r.Event("nudge", nil)
				r.Event("file_created", map[string]string{"path": "/secret-plans.txt"})
				r.Say("Done.")
			}})
			e.send("1", "go")
			e.rec.waitLine(t, "1 end")
			got := map[string]float64{}
			for _, l := range e.log.find("threads.event") {
				got[l["name"].(string)] = l["bytes"].(float64)
			}
			if n, ok := got["nudge"]; !ok || n != 0 {
				t.Errorf("nudge logged %v (present %v), want 0 bytes", n, ok)
			}
			if got["file_created"] <= 0 {
				t.Errorf("file_created logged with %v bytes", got["file_created"])
			}
			if strings.Contains(e.log.text(), "secret-plans") {
				t.Error("an event's data reached the log")
			}
			eq(t, "turn", e.rec.turn("1"), []string{"say Done.", "render-end", "end"})
		})
	}
}

// TestReconnectMidReply: the socket drops mid-sentence; the reconnected
// socket gets only the chunks still to come, the one catch-up read shows
// the reply pending with no content, and the reply is finished from its
// terminal record: nothing said twice, nothing lost.
func TestReconnectMidReply(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			// In a bubble: the reconnect delay passes in fake time.
			synctest.Test(t, func(t *testing.T) {
				g := gate(make(chan struct{}))
				e := newPipeEnv(t, b, func(r *threadserver.Reply) {
					r.Say("Hello there. ", "How are")
					if !g.wait(r) {
						return
					}
					r.Say(" you? I am ", "fine. Bye")
				}, nil)
				e.send("1", "hi")
				e.rec.waitLine(t, "1 say Hello there.")
				e.srv.DropStreams(e.tr.Thread())
				e.rec.waitCount(t, "state ready", 2)
				close(g)
				e.rec.waitLine(t, "1 end")
				eq(t, "turn", e.rec.turn("1"), []string{
					"say Hello there.",
					"say How are you?",
					"say I am fine.",
					"say Bye",
					"render-end",
					"end",
				})
				if st := e.srv.Stats(e.tr.Thread()); st.Opens != 2 || st.Reads != 2 || st.Tickets != 2 {
					t.Errorf("stats %+v: want a ticket, an open and exactly one catch-up read per connect", st)
				}
				if e.rec.has("1 wait socket rendered=true") || e.rec.has("1 wait socket rendered=false") {
					t.Error("the drop ended the turn")
				}
			})
		})
	}
}

// TestQueuedSecondMessage: a message sent while a run goes is queued by the
// runtime and runs after it; each turn gets its own reply and end.
func TestQueuedSecondMessage(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			g := gate(make(chan struct{}))
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				switch r.Utterance() {
				case "one":
					r.Say("One. ")
					g.wait(r)
					r.Say("Still one.")
				case "two":
					r.Say("Two.")
				}
			}})
			e.send("1", "one")
			e.rec.waitLine(t, "1 say One.")
			e.send("2", "two")
			e.waitServer("the second message queued", func() bool { return e.stats().Queued == 1 })
			close(g)
			e.rec.waitLine(t, "2 end")
			eq(t, "first", e.rec.turn("1"), []string{"say One.", "say Still one.", "render-end", "end"})
			eq(t, "second", e.rec.turn("2"), []string{"say Two.", "render-end", "end"})
			all := e.rec.all()
			if indexOf(all, "1 end") > indexOf(all, "2 say Two.") {
				t.Errorf("the second reply came before the first ended: %q", all)
			}
		})
	}
}

func indexOf(ls []string, l string) int {
	for i, x := range ls {
		if x == l {
			return i
		}
	}
	return -1
}

// TestFailedRun: a run that fails gives the generic failure (a TurnError
// with no message) and its reason in the log: the code where the runtime
// sends codes, the prose where it sends prose.
func TestFailedRun(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				r.Say("Let me ")
				r.Fail("upstream 502")
			}})
			e.send("1", "hi")
			e.rec.waitLine(t, "1 end")
			// The failed message's words are not said; the failure line is.
			eq(t, "turn", e.rec.turn("1"), []string{"error ", "end"})
			fails := e.log.find("threads.run_failed")
			if len(fails) != 1 {
				t.Fatalf("run_failed lines: %v", fails)
			}
			want := "Error: upstream 502"
			if b.StopReasonCodes {
				want = "step_error"
			}
			if fails[0]["reason"] != want {
				t.Errorf("reason %q, want %q", fails[0]["reason"], want)
			}
		})
	}
}

// TestBackendStartedTurn: a run no message of this client started (a
// scheduled reply) plays as a backend turn.
func TestBackendStartedTurn(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b})
			e.srv.Inject(e.thread(), func(r *threadserver.Reply) { r.Say("Time for a break!") })
			e.rec.waitLine(t, "sa-1 end")
			eq(t, "turn", e.rec.turn("sa-1"), []string{"say Time for a break!", "render-end", "end"})
		})
	}
}

// TestRetryKeepsPaintedText: a provider retry shows another message id
// that says the painted text again; it is not said twice, and the rest is.
func TestRetryKeepsPaintedText(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				r.Say("Hello there. How")
				r.Retry()
				r.Say("Hello there. ", "How are you?")
			}})
			e.send("1", "hi")
			e.rec.waitLine(t, "1 end")
			eq(t, "turn", e.rec.turn("1"), []string{"say Hello there.", "say How are you?", "render-end", "end"})
		})
	}
}

// TestTerminalRecordAuthoritative: the terminal record's content wins over
// the streamed chunks; only what was not spoken is spoken.
func TestTerminalRecordAuthoritative(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				r.Say("Sure thing. The answer is fo")
				r.Final("Sure thing. The answer is 42.")
			}})
			e.send("1", "hi")
			e.rec.waitLine(t, "1 end")
			eq(t, "turn", e.rec.turn("1"), []string{"say Sure thing.", "say The answer is 42.", "render-end", "end"})
		})
	}
}

// TestTurnWithImages: the images go as attachments, the screenshot first
// and named so, with their sizes; the content is the block and the words.
func TestTurnWithImages(t *testing.T) {
	var got string
	e := newEnv(t, envOpts{behaviour: threadserver.Spec(), agent: func(r *threadserver.Reply) {
		got = r.Text()
		r.Say("Nice picture.")
	}})
	shot, photo := pngURL(t, 40, 30), pngURL(t, 8, 6)
	err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "look at this", Images: []string{shot, photo},
		ClientContext: "<client_context>\ntime: now\nscreenshot: monitor 0 (DP-1)\ntrigger: user message\n</client_context>"})
	if err != nil {
		t.Fatal(err)
	}
	e.rec.waitLine(t, "1 end")
	if want := "<client_context>\ntime: now\nscreenshot: monitor 0 (DP-1)\ntrigger: user message\n</client_context>\n\nlook at this"; got != want {
		t.Errorf("content %q, want %q", got, want)
	}
	atts := e.srv.Attachments(e.thread())
	if len(atts) != 1 || len(atts[0]) != 2 {
		t.Fatalf("attachments %v", atts)
	}
	a0, a1 := atts[0][0], atts[0][1]
	if a0["name"] != "screenshot.png" || a0["mimeType"] != "image/png" || a0["width"] != float64(40) || a0["height"] != float64(30) {
		t.Errorf("first attachment %v", a0)
	}
	if a1["name"] != "image-2.png" || a1["width"] != float64(8) {
		t.Errorf("second attachment %v", a1)
	}
	if a0["data"] != strings.TrimPrefix(shot, "data:image/png;base64,") {
		t.Error("the screenshot's data changed on the way")
	}
	// The budget the session fits images into.
	caps := e.tr.Capabilities()
	if !caps.Images || caps.MaxTurnBytes != threads.MaxTurnBytes || !caps.BackendTurns || !caps.StopFrames || caps.Delegations || caps.PlaybackReports {
		t.Errorf("capabilities %+v", caps)
	}
	big := "data:image/png;base64," + strings.Repeat("A", threads.MaxTurnBytes)
	if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "2", Images: []string{big}}); !errors.Is(err, transport.ErrOversize) {
		t.Errorf("an oversize turn: %v, want ErrOversize", err)
	}
}

func pngURL(t *testing.T, w, h int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i)
	}
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

// TestNotConfigured: no base URL, or neither a thread nor an agent.
func TestNotConfigured(t *testing.T) {
	for name, cfg := range map[string]threads.Config{
		"no url":   {Endpoint: func() string { return "" }, Agent: func() string { return "a" }},
		"no agent": {Endpoint: func() string { return "http://127.0.0.1:1" }},
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := threads.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			r := newRec()
			tr.Start(r.handler())
			defer tr.Close()
			r.waitLine(t, "state disconnected")
			r.mu.Lock()
			c := r.states[0]
			r.mu.Unlock()
			if !errors.Is(c.Err, transport.ErrNotConfigured) {
				t.Errorf("state change %+v, want ErrNotConfigured", c)
			}
		})
	}
	if _, err := threads.New(threads.Config{Endpoint: func() string { return "x" }, Thread: "../x"}); err == nil {
		t.Error("a thread id with a dot segment was taken")
	}
}
