package demobackend

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"yui/transport/push"
	"yui/transport/responses/inputrules"
)

// POST /v1/responses: the demo's OpenAI Responses endpoint, streamed as the real API does.

// rsRequest is the part of a Responses request the demo reads.
type rsRequest struct {
	Input []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"input"`
	Tools []struct {
		Name       string `json:"name"`
		Parameters struct {
			Properties map[string]struct {
				Enum []string `json:"enum"`
			} `json:"properties"`
		} `json:"parameters"`
	} `json:"tools"`
}

func (b *Backend) responses(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, `{"error":"POST only"}`, http.StatusMethodNotAllowed)
		return
	}
	if !b.authorized(w, r) {
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxOpenAIBody))
	var q rsRequest
	if err == nil {
		err = json.Unmarshal(raw, &q)
	}
	if err != nil {
		http.Error(w, `{"error":{"message":"unreadable request"}}`, http.StatusBadRequest)
		return
	}
	// As strict about the input as OpenAI's server.
	if ref := inputrules.Check(raw, inputrules.OpenAI); ref != nil {
		ref.Write(w)
		return
	}
	text, images := q.lastUser()
	// The utterance follows the client_context block.
	cc := ""
	if i := strings.LastIndex(text, "</client_context>"); i >= 0 {
		cc = text[:i]
		text = strings.TrimSpace(text[i+len("</client_context>"):])
	}
	fq, end, ok := b.startRun("responses", text, cc, images, len(q.Input), q.vocabulary())
	if !ok {
		http.Error(w, `{"error":"closing"}`, http.StatusServiceUnavailable)
		return
	}
	defer end()
	b.streamResponse(w, r, fq)
}

// lastUser is the text of the request's last user input item with text
// (its input_text parts joined) and how many images it carries.
func (q *rsRequest) lastUser() (text string, images int) {
	for i := len(q.Input) - 1; i >= 0 && text == ""; i-- {
		if q.Input[i].Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(q.Input[i].Content, &s) == nil {
			return s, images
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(q.Input[i].Content, &parts)
		for _, p := range parts {
			if p.Type == "input_image" {
				images++
			} else {
				text += p.Text
			}
		}
	}
	return text, images
}

// vocabulary is what the request's generate_express tool declares (the
// last one wins).
func (q *rsRequest) vocabulary() push.Vocabulary {
	var vocab push.Vocabulary
	for _, t := range q.Tools {
		if strings.HasSuffix(t.Name, "generate_express") {
			vocab = push.Vocabulary{EmotionIDs: t.Parameters.Properties["emotion_id"].Enum, MotionIDs: t.Parameters.Properties["motion_id"].Enum, EmotionTextMode: "free"}
		}
	}
	return vocab
}

// streamResponse writes the run's frames from fq as a Responses event
// stream until the turn ends, fails or the client goes away.
func (b *Backend) streamResponse(w http.ResponseWriter, r *http.Request, fq *frameQueue) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	b.mu.Lock()
	b.minted++
	respID := fmt.Sprintf("resp_demo_%d", b.minted)
	b.mu.Unlock()
	write := func(v map[string]any) {
		bs, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], bs)
	}
	write(map[string]any{"type": "response.created", "response": map[string]any{"id": respID, "status": "in_progress"}})
	items := 0
	segments := func(segs []push.Segment) {
		for _, s := range segs {
			for _, c := range s.Cues {
				args, _ := json.Marshal(c)
				it := map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d", items), "call_id": fmt.Sprintf("cue-%d", items),
					"name": "generate_express", "arguments": string(args), "status": "completed"}
				write(map[string]any{"type": "response.output_item.added", "output_index": items, "item": it})
				write(map[string]any{"type": "response.output_item.done", "output_index": items, "item": it})
				items++
			}
			if s.Speech != "" {
				write(map[string]any{"type": "response.output_text.delta", "delta": s.Speech + " "})
			}
		}
	}
	for {
		select {
		case <-r.Context().Done():
			return
		case <-fq.wake:
		}
		for _, f := range fq.take() {
			switch f := f.(type) {
			case push.Reasoning:
				write(map[string]any{"type": "response.reasoning_summary_text.delta", "delta": f.Delta})
			case push.Speech:
				segments(f.Segments)
			case push.Render:
				segments(f.Segments)
			case push.ErrorFrame:
				write(map[string]any{"type": "response.failed", "response": map[string]any{"id": respID, "status": "failed",
					"error": map[string]any{"code": "server_error", "message": f.Message}}})
				if fl != nil {
					fl.Flush()
				}
				return
			case push.TurnEnd:
				resp := map[string]any{"id": respID, "status": "completed", "output": []any{}}
				if u := f.Usage; u != nil {
					resp["usage"] = map[string]any{"input_tokens": u.InputTokens, "output_tokens": u.OutputTokens, "total_tokens": u.TotalTokens}
				}
				write(map[string]any{"type": "response.completed", "response": resp})
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
