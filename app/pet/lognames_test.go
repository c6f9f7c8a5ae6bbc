package pet_test

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/demobackend"
	"yui/app/pet"
	"yui/app/session"
	"yui/app/settings"
	"yui/transport/pushserver"
)

// syncBuf is a log sink the session's goroutines write to.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }

// events are the event names logged, in order.
func (s *syncBuf) events() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s.b.String()), "\n") {
		var m struct {
			Msg string `json:"msg"`
		}
		if json.Unmarshal([]byte(l), &m) == nil && m.Msg != "" {
			out = append(out, m.Msg)
		}
	}
	return out
}

// TestEachWireLogsItsOwnNames: a turn over each of the four wires (the
// demo backend serves them all, in memory) logs its speech, render and
// turn_end under the wire's own name; push keeps the spec's push.* names,
// and no other wire logs a push.* line.
func TestEachWireLogsItsOwnNames(t *testing.T) {
	b := demobackend.New(demobackend.Config{Key: "demo-k", TimeScale: 0.001})
	t.Cleanup(func() { b.Close() })
	hc := pushserver.InMemoryClient(b.Routes()) // every route, in memory
	const base = "http://demo.test"
	for _, c := range []struct{ chatAPI, name string }{
		{pet.Push, "push"}, {pet.ChatCompletions, "chat_completions"}, {pet.Responses, "responses"}, {pet.StandardAgents, "threads"},
	} {
		t.Run(c.chatAPI, func(t *testing.T) {
			appLog, turnLog := &syncBuf{}, &syncBuf{}
			ended, ready := make(chan struct{}, 4), make(chan struct{}, 4)
			p := settings.Preset{ID: "p-0000000" + c.name[:1], Name: "Yui", ChatAPI: c.chatAPI, ChatBaseURL: base, Key: "demo-k",
				ChatID: "yui-0000000" + c.name[:1], AgentID: demobackend.DemoAgent}
			ch, err := pet.New(pet.Config{Preset: p, ConfigDir: t.TempDir(), HTTPClient: hc,
				Logger:  slog.New(slog.NewJSONHandler(appLog, nil)),
				TurnLog: slog.New(slog.NewJSONHandler(turnLog, nil)),
				OnEvent: func(e session.Event) {
					switch {
					case e.Kind == session.KindTurnEnd:
						ended <- struct{}{}
					case e.Kind == session.KindSocket && e.State == "ready":
						ready <- struct{}{}
					}
				}})
			if err != nil {
				t.Fatal(err)
			}
			defer ch.Session.Close()
			ch.Session.Start()
			select {
			case <-ready:
			case <-time.After(hangLimit):
				t.Fatal("not ready")
			}
			ch.Session.SendText("hello")
			select {
			case <-ended:
			case <-time.After(hangLimit):
				t.Fatal("no turn_end")
			}
			ch.Session.Close()
			got := append(appLog.events(), turnLog.events()...)
			for _, want := range []string{c.name + ".turn_end", c.name + ".render"} {
				if !contains(got, want) {
					t.Errorf("no %s line: %q", want, got)
				}
			}
			if !contains(got, c.name+".speech") && !contains(got, c.name+".render") {
				t.Errorf("no speech: %q", got)
			}
			for _, e := range got {
				if c.name != "push" && strings.HasPrefix(e, "push.") {
					t.Errorf("%s logged %s", c.chatAPI, e)
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hangLimit only bounds a hang.
const hangLimit = 60 * time.Second
