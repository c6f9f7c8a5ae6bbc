package threads

import (
	"encoding/json"
	"errors"
	"strings"
)

// The frame types of the stream (thread-stream.txt, "Server → Client
// Frames"); telemetry frames carry the telemetry kind as their type.
const (
	TypeThreadStatus   = "thread_status"
	TypeMessageData    = "message_data"
	TypeMessageChunk   = "message_chunk"
	TypeReasoningChunk = "reasoning_chunk"
	TypeEvent          = "event"

	TypeStepStarted   = "step_started"
	TypeStepCompleted = "step_completed"
	TypeToolStarted   = "tool_started"
	TypeToolCompleted = "tool_completed"
	TypeStopped       = "stopped"
)

// The heartbeat strings: the client sends Ping; the runtime answers Pong
// (older runtimes answer a plain "ping" with "pong"). They are not frames.
const (
	Ping       = "stream_ping"
	Pong       = "stream_pong"
	legacyPong = "pong"
)

// Run states of thread_status.
const (
	StateIdle    = "idle"
	StateRunning = "running"
	StateFailed  = "failed"
)

// StoppedByUser is the content of the system message a user stop adds.
const StoppedByUser = "Execution stopped by user"

// frame is one decoded server frame: the fields every type may use.
type frame struct {
	Type string
	// message frames
	MessageID string
	Depth     int
	Data      json.RawMessage // message_data: the (maybe partial) record
	Chunk     string          // message_chunk, reasoning_chunk
	// thread_status
	State  string
	Reason string // code or prose; "" for null
	// telemetry
	Tool   string
	Status string
	// event
	EventName string
	EventSize int // bytes of data; 0 for null or absent
}

// errNotFrame: the text is a heartbeat answer, not a frame.
var errNotFrame = errors.New("heartbeat answer")

// wireFrame is the union of the fields read. The spec's text does not
// name thread_status's members: "status" or "state" carries the run state
// and "reason" (or "reason_code" / "stop_reason") the reason.
type wireFrame struct {
	Type      string          `json:"type"`
	MessageID string          `json:"message_id"`
	Depth     json.RawMessage `json:"depth"`
	Data      json.RawMessage `json:"data"`
	Chunk     json.RawMessage `json:"chunk"`

	Status     json.RawMessage `json:"status"`
	State      json.RawMessage `json:"state"`
	RunStatus  json.RawMessage `json:"run_status"`
	Reason     json.RawMessage `json:"reason"`
	ReasonCode json.RawMessage `json:"reason_code"`
	StopReason json.RawMessage `json:"stop_reason"`

	Tool      json.RawMessage `json:"tool"`
	EventType json.RawMessage `json:"eventType"`
	Name      json.RawMessage `json:"name"`
	Event     json.RawMessage `json:"event"`
}

// str reads a JSON string; "" for null, absent or another type.
func str(raw json.RawMessage) string {
	var s string
	if len(raw) > 0 && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

// firstStr is the first of raws that is a non-empty string.
func firstStr(raws ...json.RawMessage) string {
	for _, r := range raws {
		if s := str(r); s != "" {
			return s
		}
	}
	return ""
}

// decodeFrame reads one text message of the stream.
func decodeFrame(b []byte) (frame, error) {
	t := strings.TrimSpace(string(b))
	if t == Pong || t == legacyPong {
		return frame{}, errNotFrame
	}
	var w wireFrame
	if err := json.Unmarshal(b, &w); err != nil {
		return frame{}, err
	}
	if w.Type == "" {
		return frame{}, errors.New("frame has no type")
	}
	f := frame{Type: w.Type, MessageID: w.MessageID}
	if len(w.Depth) > 0 {
		var d float64
		if json.Unmarshal(w.Depth, &d) == nil && d > 0 {
			f.Depth = int(d)
		}
	}
	switch w.Type {
	case TypeThreadStatus:
		f.State = firstStr(w.Status, w.State, w.RunStatus)
		f.Reason = firstStr(w.Reason, w.ReasonCode, w.StopReason)
	case TypeMessageData:
		f.Data = w.Data
		if f.MessageID == "" {
			var id struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(w.Data, &id)
			f.MessageID = id.ID
		}
	case TypeMessageChunk, TypeReasoningChunk:
		f.Chunk = str(w.Chunk)
	case TypeEvent:
		f.EventName = firstStr(w.EventType, w.Name, w.Event)
		if d := strings.TrimSpace(string(w.Data)); d != "" && d != "null" {
			f.EventSize = len(d)
		}
	default:
		f.Tool = str(w.Tool)
		f.Status = str(w.Status)
		f.Reason = str(w.Reason)
	}
	return f, nil
}

// failedReason reports whether a `stopped` telemetry reason (prose on
// runtimes without thread_status, a code on others) ends a run as failed:
// an error, a failure, or the spec's failed codes.
func failedReason(reason string) bool {
	r := strings.ToLower(reason)
	switch r {
	case "step_error", "repeated_tool_error", "tool_execution_error", "session_fail", "fatal_error", "execution_lost":
		return true
	}
	return strings.HasPrefix(r, "error") || strings.Contains(r, " error") || strings.Contains(r, "fail")
}

// toolFailed reports whether a tool_completed status means the tool failed.
func toolFailed(status string) bool {
	switch strings.ToLower(status) {
	case "error", "failed", "failure", "fail":
		return true
	}
	return false
}
