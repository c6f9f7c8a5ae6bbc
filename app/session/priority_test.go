package session_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"

	"yui/transport/push"
)

// teeHandler sends each record to two handlers.
type teeHandler struct{ a, b slog.Handler }

func (t teeHandler) Enabled(context.Context, slog.Level) bool { return true }
func (t teeHandler) WithAttrs([]slog.Attr) slog.Handler       { return t }
func (t teeHandler) WithGroup(string) slog.Handler            { return t }
func (t teeHandler) Handle(ctx context.Context, r slog.Record) error {
	t.a.Handle(ctx, r)
	return t.b.Handle(ctx, r)
}

// gateOnce blocks the first record with message msg until release is
// closed: it holds the session's actor in the middle of that frame.
type gateOnce struct {
	msg     string
	release chan struct{}
	once    sync.Once
}

func (g *gateOnce) Enabled(context.Context, slog.Level) bool { return true }
func (g *gateOnce) WithAttrs([]slog.Attr) slog.Handler       { return g }
func (g *gateOnce) WithGroup(string) slog.Handler            { return g }
func (g *gateOnce) Handle(_ context.Context, r slog.Record) error {
	if r.Message == g.msg {
		g.once.Do(func() { <-g.release })
	}
	return nil
}

// A typed line goes out ahead of the backend frames already read: behind
// 100k renders a typed line had not gone out after 300 s. Here the actor
// is held inside the first of 2,000 renders while the rest pile up; the
// typed turn is the next thing it does.
func TestATypedLineGoesOutAheadOfQueuedBackendFrames(t *testing.T) {
	bubble(t, func(t *testing.T) {
		gate := &gateOnce{msg: "push.render", release: make(chan struct{})}
		e := newEnv(t, envOpts{turnLog: gate})
		const n = 2000
		for i := range n {
			e.must(e.srv.SendRender(e.chat, push.Render{TurnID: "bg-flood", Source: "test",
				Segments: []push.Segment{seg(fmt.Sprintf("News number %d.", i))}}))
		}
		synctest.Wait() // the actor is in render 1; the rest wait on the mailbox, the client, the socket
		id := e.s.SendText("hello there")
		close(gate.release)
		synctest.Wait()
		renders, sentAfter := 0, -1
		for _, r := range e.tlog.Records() {
			switch r.Msg {
			case "push.render":
				renders++
			case "turn":
				if r.Attrs["turn_id"] == id {
					sentAfter = renders
				}
			}
		}
		if sentAfter != 1 {
			t.Fatalf("the typed turn went out after %d renders (of %d), want right after the one being handled", sentAfter, renders)
		}
		if ts := e.Turns(); len(ts) != 1 || ts[0].TurnID != id {
			t.Fatalf("backend got %+v", ts)
		}
	})
}
