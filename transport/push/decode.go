package push

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// DecodeErrorKind classifies why a frame could not be read.
type DecodeErrorKind int

const (
	// ParseFailed: not a JSON object (logged as frame_parse_failed).
	ParseFailed DecodeErrorKind = iota + 1
	// Malformed: a known type with a missing or wrong-typed field (frame_malformed).
	Malformed
	// Unknown: a type this side does not read (frame_unknown).
	Unknown
)

// DecodeError says why a frame was not read. When a decode function returns
// a frame together with a *DecodeError of kind Malformed, the frame is usable:
// the named optional field was unreadable and is read as absent (the spec's
// rule for turn_end.usage, applied by this client to ready.max_turn_bytes).
type DecodeError struct {
	Kind      DecodeErrorKind
	FrameType string // "" when unknown
	Field     string // dotted path for Malformed, e.g. "segments.cues.emotion_id"
	Err       error
}

func (e *DecodeError) Error() string {
	switch e.Kind {
	case ParseFailed:
		return fmt.Sprintf("push: frame parse failed: %v", e.Err)
	case Malformed:
		return fmt.Sprintf("push: malformed %s frame: field %s", e.FrameType, e.Field)
	default:
		return fmt.Sprintf("push: unknown frame type %q", e.FrameType)
	}
}

func (e *DecodeError) Unwrap() error { return e.Err }

// inboundWire is the union of every backend→client frame's fields. The types
// of fields shared by several frames agree, so one pass of encoding/json reads
// any inbound frame.
type inboundWire struct {
	Type         string          `json:"type"`
	ChatID       string          `json:"chat_id"`
	MaxTurnBytes json.RawMessage `json:"max_turn_bytes"`
	TurnID       string          `json:"turn_id"`
	Source       string          `json:"source"`
	Segments     []Segment       `json:"segments"`
	Reasoning    string          `json:"reasoning"`
	Usage        json.RawMessage `json:"usage"`
	Message      string          `json:"message"`
	State        string          `json:"state"`
	ToolID       string          `json:"tool_id"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Arguments    json.RawMessage `json:"arguments"`
	Delta        string          `json:"delta"`
	Items        []Delegation    `json:"items"`
}

// inboundFields lists, per inbound type, the top-level fields it reads.
var inboundFields = map[string][]string{
	TypeReady:       {"chat_id", "max_turn_bytes"},
	TypeRender:      {"turn_id", "source", "segments", "reasoning"},
	TypeSpeech:      {"turn_id", "segments"},
	TypeTurnEnd:     {"turn_id", "usage"},
	TypeError:       {"turn_id", "message"},
	TypeToolStatus:  {"turn_id", "state", "tool_id"},
	TypeToolCall:    {"id", "turn_id", "name", "arguments"},
	TypeReasoning:   {"turn_id", "delta"},
	TypeDelegations: {"items"},
}

// DecodeInbound reads one backend→client frame. On failure it returns a
// *DecodeError saying which log line applies; see DecodeError for the case
// where both a frame and an error come back. It never panics, whatever b holds.
func DecodeInbound(b []byte) (Frame, error) {
	if !looksLikeObject(b) {
		return nil, &DecodeError{Kind: ParseFailed, Err: errors.New("not a JSON object")}
	}
	var w inboundWire
	if err := json.Unmarshal(b, &w); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, &DecodeError{Kind: ParseFailed, Err: err}
		}
		if te.Field == "type" || te.Field == "" {
			return nil, &DecodeError{Kind: Malformed, Field: "type", Err: err}
		}
		fields, known := inboundFields[w.Type]
		if !known {
			// A wrong-typed field of a type we do not read: the type decides.
			if w.Type == "" {
				return nil, &DecodeError{Kind: Malformed, Field: "type", Err: errors.New("missing type")}
			}
			return nil, &DecodeError{Kind: Unknown, FrameType: w.Type}
		}
		top, _, _ := strings.Cut(te.Field, ".")
		if contains(fields, top) {
			return nil, &DecodeError{Kind: Malformed, FrameType: w.Type, Field: te.Field, Err: err}
		}
		// The wrong-typed field is one this type ignores; a later field may
		// still be wrong, so read again with only the fields the type reads.
		w, err = decodeRelevant(b, fields)
		if err != nil {
			return nil, err
		}
	}
	return inboundFromWire(&w)
}

// decodeRelevant is the slow path of DecodeInbound for a frame with a
// wrong-typed field it does not read.
func decodeRelevant(b []byte, fields []string) (inboundWire, error) {
	var all map[string]json.RawMessage
	var w inboundWire
	if err := json.Unmarshal(b, &all); err != nil {
		return w, &DecodeError{Kind: ParseFailed, Err: err}
	}
	keep := make(map[string]json.RawMessage, len(fields)+1)
	for k, v := range all {
		if k == "type" || contains(fields, k) {
			keep[k] = v
		}
	}
	nb, err := json.Marshal(keep)
	if err != nil {
		return w, &DecodeError{Kind: ParseFailed, Err: err}
	}
	if err := json.Unmarshal(nb, &w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return w, &DecodeError{Kind: Malformed, FrameType: w.Type, Field: te.Field, Err: err}
		}
		return w, &DecodeError{Kind: ParseFailed, Err: err}
	}
	return w, nil
}

func inboundFromWire(w *inboundWire) (Frame, error) {
	switch w.Type {
	case TypeReady:
		return w.ready()
	case TypeRender, TypeSpeech:
		if badID(w.TurnID) {
			return w.malformed("turn_id")
		}
		if w.Segments == nil {
			return w.malformed("segments")
		}
		if w.Type == TypeSpeech {
			return Speech{TurnID: w.TurnID, Segments: w.Segments}, nil
		}
		return Render{TurnID: w.TurnID, Source: w.Source, Segments: w.Segments, Reasoning: w.Reasoning}, nil
	case TypeTurnEnd:
		return w.turnEnd()
	case TypeError:
		if badID(w.TurnID) {
			return w.malformed("turn_id")
		}
		return ErrorFrame{TurnID: w.TurnID, Message: w.Message}, nil
	case TypeToolStatus:
		return w.toolStatus()
	case TypeToolCall:
		return w.toolCall()
	case TypeReasoning:
		if badID(w.TurnID) {
			return w.malformed("turn_id")
		}
		return Reasoning{TurnID: w.TurnID, Delta: w.Delta}, nil
	case TypeDelegations:
		return w.delegations()
	case "":
		return nil, &DecodeError{Kind: Malformed, Field: "type", Err: errors.New("missing type")}
	}
	return nil, &DecodeError{Kind: Unknown, FrameType: w.Type}
}

// malformed is the error of a frame whose field is missing or wrong.
func (w *inboundWire) malformed(field string) (Frame, error) {
	return nil, &DecodeError{Kind: Malformed, FrameType: w.Type, Field: field}
}

func (w *inboundWire) ready() (Frame, error) {
	r := Ready{ChatID: w.ChatID}
	if n, ok := positiveInt(w.MaxTurnBytes); ok {
		r.MaxTurnBytes = n
	} else if !isAbsent(w.MaxTurnBytes) {
		return r, &DecodeError{Kind: Malformed, FrameType: TypeReady, Field: "max_turn_bytes"}
	}
	return r, nil
}

func (w *inboundWire) turnEnd() (Frame, error) {
	if badID(w.TurnID) {
		return w.malformed("turn_id")
	}
	te := TurnEnd{TurnID: w.TurnID}
	if !isAbsent(w.Usage) {
		u, ok := readUsage(w.Usage)
		if !ok {
			return te, &DecodeError{Kind: Malformed, FrameType: TypeTurnEnd, Field: "usage"}
		}
		te.Usage = u
	}
	return te, nil
}

func (w *inboundWire) toolStatus() (Frame, error) {
	if badID(w.TurnID) {
		return w.malformed("turn_id")
	}
	switch w.State {
	case "running", "done", "failed":
	default:
		return w.malformed("state")
	}
	if w.ToolID == "" {
		return w.malformed("tool_id")
	}
	return ToolStatus{TurnID: w.TurnID, State: w.State, ToolID: w.ToolID}, nil
}

func (w *inboundWire) toolCall() (Frame, error) {
	if badID(w.ID) {
		return w.malformed("id")
	}
	if badID(w.TurnID) {
		return w.malformed("turn_id")
	}
	if w.Name == "" {
		return w.malformed("name")
	}
	args := w.Arguments
	if isAbsent(args) {
		args = json.RawMessage(`{}`)
	} else if !looksLikeObject(args) {
		return w.malformed("arguments")
	}
	return ToolCall{ID: w.ID, TurnID: w.TurnID, Name: w.Name, Arguments: args}, nil
}

func (w *inboundWire) delegations() (Frame, error) {
	if w.Items == nil {
		return w.malformed("items")
	}
	for _, it := range w.Items {
		const p = "items."
		if badID(it.ID) {
			return w.malformed(p + "id")
		}
		if it.State != "running" && it.State != "done" {
			return w.malformed(p + "state")
		}
		switch it.Status {
		case "", "ok", "error", "unknown":
		default:
			return w.malformed(p + "status")
		}
	}
	return Delegations{Items: w.Items}, nil
}

// MaxIDBytes is the longest turn_id, tool_call id or delegation id this
// client reads: a frame with a longer one is malformed (frame_malformed,
// field turn_id / id / items.id). The spec sets no length; ids are kept
// in bounded sets, named in stop frames and logged, so a bound keeps those
// small (client ids are 13 digits; backends mint short ones).
const MaxIDBytes = 256

// badID reports an id that is empty or over MaxIDBytes.
func badID(id string) bool { return id == "" || len(id) > MaxIDBytes }

// looksLikeObject reports whether b's first non-space byte opens an object.
func looksLikeObject(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

func isAbsent(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// positiveInt reads a JSON number that is a positive integer fitting an int.
func positiveInt(raw json.RawMessage) (int, bool) {
	if isAbsent(raw) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 0)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(raw), 64)
		if ferr != nil || f != float64(int64(f)) || f > 1<<53 || raw[0] == '"' {
			return 0, false
		}
		n = int64(f)
	}
	if n <= 0 {
		return 0, false
	}
	return int(n), true
}

// readUsage reads a usage object carrying all three counts as numbers.
func readUsage(raw json.RawMessage) (*Usage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, false
	}
	var u Usage
	for key, dst := range map[string]*float64{"input_tokens": &u.InputTokens, "output_tokens": &u.OutputTokens, "total_tokens": &u.TotalTokens} {
		v, ok := m[key]
		if !ok {
			return nil, false
		}
		if err := json.Unmarshal(v, dst); err != nil || string(v) == "null" {
			return nil, false
		}
	}
	return &u, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
