package console

import (
	"encoding/json"

	"yui/app/delegation"
	"yui/app/session"
)

// jsonEvent returns the --json object of an event: event and ts (epoch
// ms) and the fields docs/console.md lists for its kind.
func jsonEvent(ev session.Event) map[string]any {
	m := map[string]any{"event": string(ev.Kind()), "ts": ev.When().UnixMilli()}
	switch e := ev.(type) {
	case session.Socket:
		m["state"] = e.State
		if e.Code >= 0 {
			m["code"] = e.Code
		} else {
			m["code"] = nil
		}
		m["delay_ms"] = e.DelayMS
		if e.Err != "" {
			m["error"] = e.Err
		}
	case session.TurnSent:
		m["turn_id"], m["text"] = e.TurnID, e.Text
	case session.Composer:
		m["locked"] = e.Locked
	case session.Plate:
		m["text"] = e.Text
	case session.Cue:
		m["turn_id"] = e.TurnID
		setIf(m, "emotion_id", e.Cue.EmotionID)
		setIf(m, "motion_id", e.Cue.MotionID)
		setIf(m, "emotion_text", e.Cue.EmotionText)
		setIf(m, "caption", e.Cue.Caption)
	case session.SpeechStart:
		m["turn_id"], m["text"], m["muted"] = e.TurnID, e.Text, e.Muted
	case session.SpeechEnd:
		m["turn_id"], m["text"], m["muted"] = e.TurnID, e.Text, e.Muted
	case session.Filler:
		m["turn_id"], m["text"] = e.TurnID, e.Text
	case session.FailureLine:
		m["turn_id"], m["text"] = e.TurnID, e.Text
	case session.ErrorLine:
		m["turn_id"], m["text"], m["where"] = e.TurnID, e.Text, e.Where
	case session.Pill:
		if e.Tool == nil {
			m["tool"] = nil
		} else {
			m["tool"] = e.Tool
		}
	case session.Reasoning:
		// An append carries only what was added, so a long stream does
		// not print its whole text again per delta.
		m["turn_id"], m["streaming"], m["cut"], m["append"] = e.TurnID, e.Streaming, e.Cut, e.Append
		if e.Append {
			m["text"] = e.Delta
		} else {
			m["text"] = e.Text
		}
	case session.Usage:
		m["total_tokens"], m["context_window"] = e.TotalTokens, e.ContextWindow
	case session.Delegations:
		m["items"], m["history"] = nonNil(e.Items), nonNil(e.History)
	case session.TurnEnd:
		m["turn_id"] = e.TurnID
	case session.ToolCall:
		args := e.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		m["id"], m["turn_id"], m["name"], m["arguments"] = e.CallID, e.TurnID, e.Name, args
	case session.ToolResult:
		m["id"], m["turn_id"], m["result"] = e.CallID, e.TurnID, e.Result
	}
	return m
}

func setIf(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

func nonNil(items []delegation.Item) []delegation.Item {
	if items == nil {
		return []delegation.Item{}
	}
	return items
}
