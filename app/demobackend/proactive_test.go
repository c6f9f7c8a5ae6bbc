package demobackend_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/responses"
)

// Proactive turns get an in-character answer on push: a greeting, a
// check-in, a note about the app, a reminder said back.
func TestProactiveTurnsAnswerInCharacter(t *testing.T) {
	for trigger, want := range map[string]string{
		`trigger: proactive "good morning"`:                                               "Good morning!",
		`trigger: proactive "welcome back" (user idle 45min)`:                             "Welcome back!",
		`trigger: proactive "check-in" (user idle 31min)`:                                 "Just checking in.",
		`trigger: proactive "check-in" (user idle 95min)`:                                 "It's been a while.",
		"trigger: proactive \"long stretch\"\nnote: the user has been in Emacs for 92min": "You've been in Emacs for a long time.",
		"trigger: proactive \"new app\"\nnote: the user switched to Gimp":                 "Oh, Gimp!",
		`trigger: schedule "water the plants"`:                                            "Reminder time: water the plants!",
	} {
		t.Run(want, func(t *testing.T) {
			run(t, envOpt{cfg: cfgScale(0.01)}, func(e *env) {
				e.turnWith("t-1", "", trigger)
				e.after(time.Minute)
				got := strings.Join(e.take(), "\n")
				if !strings.Contains(got, want) {
					t.Fatalf("transcript:\n%s\nwant %q", got, want)
				}
			})
		})
	}
}

// The Chat Completions route refuses, as real servers do, a request that
// ends without a user message and an empty user message; the client's
// "(no message)" for a client-started turn is read as that turn's empty
// utterance and answered from its trigger.
func TestChatCompletionsRouteIsStrictAboutTheUserMessage(t *testing.T) {
	base, ctx := serveDemo(t)
	post := func(body string) (int, string) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer demo-k")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	cc := `{"role":"system","content":"client_context:\ntrigger: proactive \"check-in\""}`
	if code, body := post(`{"messages":[{"role":"system","content":"card"},` + cc + `]}`); code != 400 || !strings.Contains(body, "No user query found") {
		t.Fatalf("no user message: %d %s", code, body)
	}
	if code, body := post(`{"messages":[` + cc + `,{"role":"user","content":""}]}`); code != 400 || !strings.Contains(body, "non-empty") {
		t.Fatalf("empty user message: %d %s", code, body)
	}

	for name, mk := range map[string]func() (transport.Transport, error){
		"chat_completions": func() (transport.Transport, error) {
			return chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return base }, Key: func() string { return "demo-k" }})
		},
		"responses": func() (transport.Transport, error) {
			return responses.New(responses.Config{Endpoint: func() string { return base }, Key: func() string { return "demo-k" }})
		},
	} {
		t.Run(name, func(t *testing.T) { proactiveOverRequestWire(t, mk) })
	}
}

// proactiveOverRequestWire sends a check-in with an empty utterance and
// wants the demo's check-in line.
func proactiveOverRequestWire(t *testing.T, mk func() (transport.Transport, error)) {
	tr, err := mk()
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var said, failed []string
	end := make(chan struct{}, 2)
	tr.Start(transport.HandlerFuncs{Event: func(e transport.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e := e.(type) {
		case transport.Speech:
			for _, s := range e.Segments {
				said = append(said, s.Speech)
			}
		case transport.TurnError:
			failed = append(failed, e.Message)
		case transport.TurnEnd:
			end <- struct{}{}
		}
	}})
	defer tr.Close()
	if err := tr.SendTurn(context.Background(), transport.Turn{TurnID: "1",
		ClientContext: "<client_context>\ntime: 2026-01-01T00:00:00+00:00 (UTC)\nbody: standing\ntrigger: proactive \"check-in\" (user idle 31min)\n</client_context>"}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-end:
	case <-time.After(60 * time.Second):
		t.Fatal("no turn end")
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(said, " "); len(failed) != 0 || !strings.Contains(got, "Just checking in.") {
		t.Fatalf("said %q failed %q", got, failed)
	}
}
