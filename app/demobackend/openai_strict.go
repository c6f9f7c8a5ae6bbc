package demobackend

import (
	"encoding/json"
	"strings"

	"yui/transport/chatcompletions"
)

// The Chat Completions route is as strict about messages as the strictest
// servers it stands for: a request must end on something to answer (a
// user message, or tool results), as llama.cpp's chat templates require
// ("No user query found in messages.") and Gemini's and Anthropic's
// OpenAI-compatible endpoints do; and a user message's text may not be
// empty (Anthropic: "text content blocks must be non-empty").

// ccRefusal is why q would be refused, or "".
func (q *ccRequest) ccRefusal() string {
	last := ""
	for _, m := range q.Messages {
		if m.Role != "system" {
			last = m.Role
		}
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil && strings.TrimSpace(s) == "" {
			return "messages: text content blocks must be non-empty"
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if json.Unmarshal(m.Content, &parts) == nil {
			for _, p := range parts {
				if p.Type == "text" && strings.TrimSpace(p.Text) == "" {
					return "messages: text content blocks must be non-empty"
				}
			}
		}
	}
	if last != "user" && last != "tool" {
		return "No user query found in messages."
	}
	return ""
}

// clientStarted reports whether the request's last turn is one the client
// started: its client_context message is followed by the user message
// chatcompletions.NoMessage.
func (q *ccRequest) clientStarted() bool {
	for i := len(q.Messages) - 2; i >= 0; i-- {
		m := q.Messages[i]
		var s string
		if m.Role != "system" || json.Unmarshal(m.Content, &s) != nil || !strings.HasPrefix(s, "client_context:") {
			continue
		}
		var u string
		next := q.Messages[i+1]
		return next.Role == "user" && json.Unmarshal(next.Content, &u) == nil && u == chatcompletions.NoMessage
	}
	return false
}
