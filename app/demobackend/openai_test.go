package demobackend_test

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/demobackend"
	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/responses"
	"yui/transport/responses/inputrules"
)

// The OpenAI-compatible routes play the push scripts: a Chat Completions
// transport gets the same small talk, with cues, reasoning and usage.
func TestChatCompletionsRoutePlaysTheScripts(t *testing.T) {
	base, ctx := serveDemo(t)

	models, err := chatcompletions.ListModels(ctx, nil, base+"/v1", "demo-k")
	if err != nil || len(models) != 1 || models[0] != demobackend.DemoModel {
		t.Fatalf("models %v %v", models, err)
	}
	if _, err := chatcompletions.ListModels(ctx, nil, base+"/v1", "wrong"); err == nil || !strings.Contains(err.Error(), "401") {
		t.Fatalf("a wrong key listed models: %v", err)
	}

	var mu sync.Mutex
	var said []string
	var usage *transport.Usage
	var errs []string
	end := make(chan struct{}, 4)
	tr, _ := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return base }, Key: func() string { return "demo-k" },
		Vocabulary: transport.Vocabulary{EmotionIDs: []string{"neutral", "happy", "relaxed", "curious"}, MotionIDs: []string{"idle_lively", "calm"}}})
	tr.Start(transport.HandlerFuncs{Event: func(e transport.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e := e.(type) {
		case transport.Speech:
			for _, s := range e.Segments {
				said = append(said, s.Speech)
			}
		case transport.Render:
			for _, s := range e.Segments {
				if s.Speech != "" {
					said = append(said, s.Speech)
				}
			}
		case transport.TurnError:
			errs = append(errs, e.Message)
		case transport.TurnEnd:
			usage = e.Usage
			end <- struct{}{}
		}
	}})
	defer tr.Close()
	tr.SendTurn(ctx, transport.Turn{TurnID: "1", Text: "hello"})
	select {
	case <-end:
	case <-time.After(20 * time.Second):
		t.Fatal("no turn end")
	}
	mu.Lock()
	if len(said) == 0 || usage == nil || usage.TotalTokens <= 0 || len(errs) != 0 {
		t.Fatalf("said %q usage %v errors %q", said, usage, errs)
	}
	mu.Unlock()
	tr.SendTurn(ctx, transport.Turn{TurnID: "2", Text: "error"})
	<-end
	mu.Lock()
	defer mu.Unlock()
	if len(errs) != 1 || !strings.Contains(errs[0], "HTTP 500: Demo failure") {
		t.Fatalf("error turn: %q", errs)
	}
}

func TestResponsesRoutePlaysTheScripts(t *testing.T) {
	base, ctx := serveDemo(t)
	var mu sync.Mutex
	var said, errs []string
	end := make(chan struct{}, 4)
	tr, _ := responses.New(responses.Config{Endpoint: func() string { return base + "/v1" }, Key: func() string { return "demo-k" }})
	tr.Start(transport.HandlerFuncs{Event: func(e transport.Event) {
		mu.Lock()
		defer mu.Unlock()
		switch e := e.(type) {
		case transport.Speech:
			for _, s := range e.Segments {
				said = append(said, s.Speech)
			}
		case transport.TurnError:
			errs = append(errs, e.Message)
		case transport.TurnEnd:
			end <- struct{}{}
		}
	}})
	defer tr.Close()
	tr.SendTurn(ctx, transport.Turn{TurnID: "1", Text: "hello", ClientContext: "<client_context>\ntrigger: user message\n</client_context>"})
	<-end
	tr.SendTurn(ctx, transport.Turn{TurnID: "2", Text: "error"})
	<-end
	mu.Lock()
	defer mu.Unlock()
	if len(said) == 0 || len(errs) != 1 {
		t.Fatalf("said %q errors %q", said, errs)
	}
}

// A client-started turn with an empty utterance (the user answered the
// screen prompt) is read from its client_context, not from the last user
// message of an earlier turn: denied, the demo takes it kindly, on both
// OpenAI-compatible routes.
func TestOpenAIRoutesReadThePermissionTrigger(t *testing.T) {
	base, ctx := serveDemo(t)
	voc := transport.Vocabulary{EmotionIDs: []string{"neutral", "happy", "relaxed", "curious"}, MotionIDs: []string{"idle_lively", "calm"}}
	for name, mk := range map[string]func() (transport.Transport, error){
		"chat_completions": func() (transport.Transport, error) {
			return chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return base }, Key: func() string { return "demo-k" }, Vocabulary: voc})
		},
		"responses": func() (transport.Transport, error) {
			return responses.New(responses.Config{Endpoint: func() string { return base }, Key: func() string { return "demo-k" }, Vocabulary: voc})
		},
	} {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			said := map[string][]string{}
			end := make(chan struct{}, 4)
			tr, err := mk()
			if err != nil {
				t.Fatal(err)
			}
			tr.Start(transport.HandlerFuncs{Event: func(e transport.Event) {
				mu.Lock()
				defer mu.Unlock()
				switch e := e.(type) {
				case transport.Speech:
					for _, s := range e.Segments {
						said[e.TurnID] = append(said[e.TurnID], s.Speech)
					}
				case transport.TurnEnd:
					end <- struct{}{}
				}
			}})
			defer tr.Close()
			turn := func(id, text, trigger string) {
				t.Helper()
				cc := "<client_context>\nThis block is from the client.\ntime: 2026-01-01T00:00:00+00:00 (UTC)\nbody: standing\n" + trigger + "\n</client_context>"
				if err := tr.SendTurn(ctx, transport.Turn{TurnID: id, Text: text, ClientContext: cc}); err != nil {
					t.Fatal(err)
				}
				select {
				case <-end:
				case <-time.After(20 * time.Second):
					t.Fatal("no turn end")
				}
			}
			turn("1", "what's on my screen?", "trigger: user message")
			turn("2", "", "trigger: permission screen denied (monitor 0)")
			mu.Lock()
			defer mu.Unlock()
			if got := strings.Join(said["2"], " "); !strings.Contains(got, "That's okay, I won't look at your screen.") {
				t.Fatalf("permission turn said %q (first turn %q)", got, said["1"])
			}
		})
	}
}

// The Responses route is as strict about input items as OpenAI's server:
// an untyped item (the assistant history Yui once sent) is refused with a
// 400 naming it, and a typed transcript is taken.
func TestResponsesRouteRefusesUntypedItems(t *testing.T) {
	base, _ := serveDemo(t)
	post := func(body string) (int, string) {
		req, _ := http.NewRequest("POST", base+"/v1/responses", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer demo-k")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	user := `{"type":"message","role":"user","content":[{"type":"input_text","text":"hello"}]}`
	code, body := post(`{"stream":true,"input":[` + user + `,{"role":"assistant","content":"Hi."},` + user + `]}`)
	if code != 400 || !strings.Contains(body, inputrules.UntypedItem) {
		t.Fatalf("untyped item: %d %s", code, body)
	}
	code, body = post(`{"stream":true,"input":[` + user + `,{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi."}]},` + user + `]}`)
	if code != 200 || !strings.Contains(body, "response.completed") {
		t.Fatalf("typed items: %d %s", code, body)
	}
}
