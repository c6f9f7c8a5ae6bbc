package chatcompletions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/internal/pipenet"
	"yui/transport/internal/request"
	"yui/transport/internal/wiretest"
)

// A backend streaming faster than the handler takes events is held back
// in its socket: while the handler is stuck, the run reads no further than
// callqueue.MaxPending events (plus what the readers buffer), so the client's
// memory does not grow with the stream. Released, every sentence arrives.
func TestAFloodWaitsInTheSocketNotInMemory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const sentences = 10000
		var written atomic.Int64
		l, stop := pipenet.Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			for range sentences {
				fmt.Fprintf(w, "data: %s\n\n", wiretest.Content("Hi. "))
				w.(http.Flusher).Flush()
				written.Add(1)
			}
			fmt.Fprintf(w, "data: %s\n\ndata: [DONE]\n\n", wiretest.Finish("stop"))
		}))
		defer stop()
		tr, err := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return "http://b.test/v1" }, HTTPClient: l.Client()})
		if err != nil {
			t.Fatal(err)
		}
		hold := make(chan struct{})
		var said atomic.Int64
		ended := make(chan struct{})
		tr.Start(transport.HandlerFuncs{Event: func(e transport.Event) {
			<-hold
			switch e.(type) {
			case transport.Speech:
				said.Add(1)
			case transport.TurnEnd:
				close(ended)
			}
		}})
		defer tr.Close()
		if err := tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "go"}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // the server blocks on the pipe, the run on the queue
		if n := written.Load(); n >= sentences/5 {
			t.Fatalf("the client read %d of %d sentences while its handler was stuck: no backpressure", n, sentences)
		}
		close(hold)
		<-ended
		if n := said.Load(); n != sentences {
			t.Fatalf("%d sentences said, want %d", n, sentences)
		}
	})
}

// Reasoning streamed without end keeps its newest MaxReasoningKept bytes
// for the render; coalesced deltas never carry more than what arrived.
func TestReasoningKeptIsTheNewestAndBounded(t *testing.T) {
	piece := strings.Repeat("r", 10<<10)
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		var evs []string
		for i := range 100 { // 1 MB
			evs = append(evs, reasoning(fmt.Sprintf("<%03d>", i)+piece))
		}
		sse(w, append(evs, content("Done."), finish("stop"), "[DONE]")...)
	}, chatcompletions.Config{})
	e.turn("1", "think")
	e.rec.WaitEnd(t, "1")
	var rendered string
	for _, l := range e.rec.Got() {
		if s, ok := strings.CutPrefix(l, "reasoning "); ok {
			rendered = s
		}
	}
	if len(rendered) == 0 || len(rendered) > request.MaxReasoningKept {
		t.Fatalf("rendered reasoning is %d bytes, want 1..%d", len(rendered), request.MaxReasoningKept)
	}
	if !strings.HasSuffix(rendered, "<099>"+piece) {
		t.Fatal("the newest reasoning was not kept")
	}
}

// A reply that never ends a sentence is spoken in pieces of at most
// MaxSentenceBytes, cut at spaces, with nothing lost.
func TestAnEndlessSentenceIsSpokenInPieces(t *testing.T) {
	word := "la "
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		var evs []string
		for range 200 {
			evs = append(evs, content(strings.Repeat(word, 200))) // 120 KB in all
		}
		sse(w, append(evs, finish("stop"), "[DONE]")...)
	}, chatcompletions.Config{})
	e.turn("1", "sing")
	e.rec.WaitEnd(t, "1")
	var all strings.Builder
	pieces := 0
	for _, l := range e.rec.Got() {
		if s, ok := strings.CutPrefix(l, "say "); ok {
			if len(s) > request.MaxSentenceBytes {
				t.Fatalf("a piece of %d bytes", len(s))
			}
			if strings.HasSuffix(s, " l") || strings.HasPrefix(s, "a ") {
				t.Fatalf("a piece cut inside a word: %q…", s[:10])
			}
			all.WriteString(s + " ")
			pieces++
		}
	}
	if got, want := strings.Fields(all.String()), 200*200; len(got) != want || pieces < 2 {
		t.Fatalf("%d words in %d pieces, want %d", len(got), pieces, want)
	}
}

// More than MaxCallsPerRound calls in one answer fails the turn; none runs.
func TestTooManyCallsFailTheTurn(t *testing.T) {
	var ran atomic.Int64
	look := transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
		ran.Add(1)
		return "ok", nil, nil
	}}
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		var evs []string
		for i := range request.MaxCallsPerRound + 50 {
			evs = append(evs, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"look","arguments":"{}"}}]}}]}`, i, i))
		}
		sse(w, append(evs, finish("tool_calls"), "[DONE]")...)
	}, chatcompletions.Config{Tools: []transport.Tool{look}})
	e.turn("1", "look a lot")
	e.rec.WaitEnd(t, "1")
	got := e.rec.Got()
	if ran.Load() != 0 || got[len(got)-2] != "error " || e.be.Requests() != 1 {
		t.Fatalf("ran %d, requests %d, lines %q", ran.Load(), e.be.Requests(), got[max(0, len(got)-3):])
	}
}

// A call id over MaxIDBytes fails the turn.
func TestALongCallIDFailsTheTurn(t *testing.T) {
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		sse(w, fmt.Sprintf(`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"%s","function":{"name":"look","arguments":"{}"}}]}}]}`, strings.Repeat("i", request.MaxIDBytes+1)),
			finish("tool_calls"), "[DONE]")
	}, chatcompletions.Config{Tools: []transport.Tool{lookTool()}})
	e.turn("1", "look")
	e.rec.WaitEnd(t, "1")
	eqLines(t, e.rec.Got(), []string{"tool look done", "error ", "end"})
}

// Arguments over MaxCallArguments are not kept: the call is answered
// "error: arguments too large" without running, and the backend hears it
// on the round trip (with "{}" as the call's arguments). The round's text
// goes back at most MaxReplyKept long.
func TestOversizeArgumentsAreRefusedNotRun(t *testing.T) {
	var ran atomic.Int64
	look := transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
		ran.Add(1)
		return "ok", nil, nil
	}}
	big, _ := json.Marshal(`{"at":"` + strings.Repeat("x", request.MaxCallArguments) + `"}`)
	e := newEnv(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 0 {
			long := make([]string, 0, 40)
			for range 40 { // 320 KB of text before the call
				long = append(long, content(strings.Repeat("word ", 1600)+"End. "))
			}
			sse(w, append(long,
				`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"look","arguments":`+string(big)+`}}]}}]}`,
				finish("tool_calls"), "[DONE]")...)
			return
		}
		sse(w, content("Fine."), finish("stop"), "[DONE]")
	}, chatcompletions.Config{Tools: []transport.Tool{look}})
	e.turn("1", "look")
	e.rec.WaitEnd(t, "1")
	if ran.Load() != 0 {
		t.Fatal("a call with oversize arguments ran")
	}
	got := e.rec.Got()
	if !strings.Contains(strings.Join(got, "\n"), "call look {}\nresult "+request.ResultArgumentsTooLarge) {
		t.Fatalf("no refusal in %q", got[len(got)-5:])
	}
	msgs := e.be.Body(t, 1)["messages"].([]any)
	var asst, tool map[string]any
	for _, m := range msgs {
		mm := m.(map[string]any)
		switch mm["role"] {
		case "assistant":
			asst = mm
		case "tool":
			tool = mm
		}
	}
	if tool["content"] != request.ResultArgumentsTooLarge {
		t.Fatalf("tool answer %v", tool["content"])
	}
	if c, _ := asst["content"].(string); len(c) == 0 || len(c) > request.MaxReplyKept {
		t.Fatalf("assistant text of %d bytes went back, want 1..%d", len(c), request.MaxReplyKept)
	}
}
