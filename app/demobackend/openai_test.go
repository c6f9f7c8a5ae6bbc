package demobackend_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/demobackend"
	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/responses"
)

// The OpenAI-compatible routes play the push scripts: a Chat Completions
// transport gets the same small talk, with cues, reasoning and usage.
func TestChatCompletionsRoutePlaysTheScripts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := demobackend.New(demobackend.Config{Key: "demo-k", TimeScale: 0.001})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	base := "http://" + ln.Addr().String()

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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := demobackend.New(demobackend.Config{Key: "demo-k", TimeScale: 0.001})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- b.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	var mu sync.Mutex
	var said, errs []string
	end := make(chan struct{}, 4)
	tr, _ := responses.New(responses.Config{Endpoint: func() string { return "http://" + ln.Addr().String() + "/v1" }, Key: func() string { return "demo-k" }})
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
