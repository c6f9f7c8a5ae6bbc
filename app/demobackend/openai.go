package demobackend

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"yui/transport/push"
)

// The OpenAI-compatible routes: POST /v1/chat/completions (and
// /chat/completions) and POST /v1/responses (and /responses) stream the reply the push scripts give the last user
// message, as Chat Completions chunks — speech as content, cues as
// generate_express tool calls, reasoning as reasoning_content, usage in the
// last chunk; GET /v1/models (and /models) lists one model. The key is a
// bearer token. The scripts are the push demo's: the same words give the
// same lines. Scenarios that need the client's look tool answer that this
// client lent none (a tool round trip is not scripted here).

// DemoModel is the one model the routes list.
const DemoModel = "yui-demo"

// maxOpenAIBody bounds a request body.
const maxOpenAIBody = 32 << 20

func (b *Backend) mountOpenAI(mux *http.ServeMux) {
	for _, p := range []string{"/v1/chat/completions", "/chat/completions"} {
		mux.HandleFunc(p, b.chatCompletions)
	}
	for _, p := range []string{"/v1/responses", "/responses"} {
		mux.HandleFunc(p, b.responses)
	}
	for _, p := range []string{"/v1/models", "/models"} {
		mux.HandleFunc(p, b.models)
	}
}

func (b *Backend) authorized(w http.ResponseWriter, r *http.Request) bool {
	key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if subtle.ConstantTimeCompare([]byte(key), []byte(b.cfg.Key)) == 1 {
		return true
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = io.WriteString(w, `{"error":{"message":"wrong key for the demo backend","type":"invalid_request_error"}}`)
	return false
}

func (b *Backend) models(w http.ResponseWriter, r *http.Request) {
	if !b.authorized(w, r) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"object":"list","data":[{"id":%q,"object":"model","owned_by":"yui"}]}`, DemoModel)
}

// ccRequest is the part of a Chat Completions request the demo reads.
type ccRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name       string `json:"name"`
			Parameters struct {
				Properties map[string]struct {
					Enum []string `json:"enum"`
				} `json:"properties"`
			} `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// lastUser is the last user message's text and how many images it had.
func (q *ccRequest) lastUser() (string, int) {
	for i := len(q.Messages) - 1; i >= 0; i-- {
		m := q.Messages[i]
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			return s, 0
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		text, images := "", 0
		for _, p := range parts {
			if p.Type == "image_url" {
				images++
			} else {
				text += p.Text
			}
		}
		return text, images
	}
	return "", 0
}

// lastContext is the client_context system message of the request's last
// turn ("client_context:\n…" lines): the last one before the last user
// message.
func (q *ccRequest) lastContext() string {
	for i := len(q.Messages) - 1; i >= 0; i-- {
		var s string
		if m := q.Messages[i]; m.Role == "system" && json.Unmarshal(m.Content, &s) == nil && strings.HasPrefix(s, "client_context:") {
			return s
		}
	}
	return ""
}

// vocabulary is what the request's cue tool offers.
func (q *ccRequest) vocabulary() push.Vocabulary {
	for _, t := range q.Tools {
		if strings.HasSuffix(t.Function.Name, "generate_express") {
			p := t.Function.Parameters.Properties
			return push.Vocabulary{EmotionIDs: p["emotion_id"].Enum, MotionIDs: p["motion_id"].Enum, EmotionTextMode: "free"}
		}
	}
	return push.Vocabulary{}
}

// frameQueue hands a run's frames to the HTTP handler; push never blocks.
type frameQueue struct {
	mu   sync.Mutex
	q    []push.Frame
	wake chan struct{}
}

func (f *frameQueue) push(fr push.Frame) {
	f.mu.Lock()
	f.q = append(f.q, fr)
	f.mu.Unlock()
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *frameQueue) take() []push.Frame {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.q
	f.q = nil
	return out
}

// startRun plays the script for text through a frame sink and returns the
// queue the frames arrive on and a func that ends the run.
func (b *Backend) startRun(api, text, clientContext string, images, turns int, vocab push.Vocabulary) (*frameQueue, func(), bool) {
	p := planForTurn(text, clientContext)
	p.echo = false // a stream carries each sentence once
	fq := &frameQueue{wake: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, nil, false
	}
	b.minted++
	id := fmt.Sprintf("openai-%d", b.minted)
	ch := b.chatLocked(id)
	ch.sink = fq.push
	ch.vocab = vocab
	ch.turns = turns
	ctx, cancel := context.WithCancel(b.ctx)
	run := &run{b: b, ch: ch, id: id, text: text, images: images, seq: ch.turns, pal: paletteOf(ch.vocab), ctx: ctx, cancel: cancel, gen: ch.gen,
		w: wordsIn(b.languageLocked(ch, text))}
	ch.active = run
	b.log.Info("demo.turn", "chat_id", id, "api", api, "scenario", p.kind.String(), "images", images)
	b.goLocked(func() {
		defer cancel()
		b.play(run, p)
	})
	return fq, func() {
		b.mu.Lock()
		run.halt()
		delete(b.chats, id)
		b.mu.Unlock()
	}, true
}

func (b *Backend) chatCompletions(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, `{"error":"POST only"}`, http.StatusMethodNotAllowed)
		return
	}
	if !b.authorized(w, r) {
		return
	}
	var q ccRequest
	if err := json.NewDecoder(io.LimitReader(r.Body, maxOpenAIBody)).Decode(&q); err != nil {
		http.Error(w, `{"error":{"message":"unreadable request"}}`, http.StatusBadRequest)
		return
	}
	if why := q.ccRefusal(); why != "" {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		bs, _ := json.Marshal(map[string]any{"error": map[string]any{"message": why, "type": "invalid_request_error"}})
		_, _ = w.Write(bs)
		return
	}
	text, images := q.lastUser()
	cc := q.lastContext()
	if q.clientStarted() {
		text = "" // the client started the turn: its utterance is empty
	}
	fq, end, ok := b.startRun("chat_completions", text, cc, images, len(q.Messages)/2, q.vocabulary())
	if !ok {
		http.Error(w, `{"error":"closing"}`, http.StatusServiceUnavailable)
		return
	}
	defer end()

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	calls := 0
	write := func(v any) {
		bs, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", bs)
	}
	delta := func(d map[string]any) {
		write(map[string]any{"object": "chat.completion.chunk", "model": DemoModel,
			"choices": []any{map[string]any{"index": 0, "delta": d}}})
	}
	segments := func(segs []push.Segment) {
		for _, s := range segs {
			for _, c := range s.Cues {
				args, _ := json.Marshal(c)
				delta(map[string]any{"tool_calls": []any{map[string]any{"index": calls, "id": fmt.Sprintf("cue-%d", calls),
					"type": "function", "function": map[string]any{"name": "generate_express", "arguments": string(args)}}}})
				calls++
			}
			if s.Speech != "" {
				delta(map[string]any{"content": s.Speech + " "})
			}
		}
	}
	for {
		select {
		case <-r.Context().Done():
			return // the client stopped: the deferred halt silences the run
		case <-fq.wake:
		}
		for _, f := range fq.take() {
			switch f := f.(type) {
			case push.Reasoning:
				delta(map[string]any{"reasoning_content": f.Delta})
			case push.Speech:
				segments(f.Segments)
			case push.Render:
				segments(f.Segments)
			case push.ErrorFrame:
				write(map[string]any{"error": map[string]any{"message": f.Message, "code": 500}})
				if fl != nil {
					fl.Flush()
				}
				return
			case push.TurnEnd:
				reason := "stop"
				if calls > 0 {
					reason = "tool_calls"
				}
				write(map[string]any{"object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": reason}}})
				if u := f.Usage; u != nil {
					write(map[string]any{"object": "chat.completion.chunk", "choices": []any{},
						"usage": map[string]any{"prompt_tokens": u.InputTokens, "completion_tokens": u.OutputTokens, "total_tokens": u.TotalTokens}})
				}
				_, _ = io.WriteString(w, "data: [DONE]\n\n")
				if fl != nil {
					fl.Flush()
				}
				return
			}
		}
		if fl != nil {
			fl.Flush()
		}
	}
}
