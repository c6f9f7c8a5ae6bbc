package push

import (
	"encoding/json"
	"errors"
)

// outboundWire is the union of every client→backend frame's fields.
type outboundWire struct {
	Type          string          `json:"type"`
	Key           string          `json:"key"`
	ChatID        string          `json:"chat_id"`
	Accepts       json.RawMessage `json:"accepts"`
	Vocabulary    *Vocabulary     `json:"vocabulary"`
	Tools         []ToolSchema    `json:"tools"`
	TurnID        string          `json:"turn_id"`
	ClientContext string          `json:"client_context"`
	Text          string          `json:"text"`
	Images        []string        `json:"images"`
	TurnIDs       []string        `json:"turn_ids"`
	Ended         string          `json:"ended"`
	ID            string          `json:"id"`
	Result        *string         `json:"result"`
}

var outboundFields = map[string][]string{
	TypeHello:      {"key", "chat_id", "accepts", "vocabulary", "tools"},
	TypeVocabulary: {"vocabulary"},
	TypeTurn:       {"turn_id", "client_context", "text", "images"},
	TypeReset:      {},
	TypeStop:       {"turn_ids"},
	TypePlayback:   {"turn_id", "ended"},
	TypeToolResult: {"id", "turn_id", "result", "images"},
}

// DecodeOutbound reads one client→backend frame, the backend's side of the
// codec. A hello's accepts that is not a list of strings is read as absent
// (nil), as the spec asks of a backend; a hello without chat_id decodes, and
// the backend decides (4401). Errors are *DecodeError as for DecodeInbound.
func DecodeOutbound(b []byte) (Frame, error) {
	if !looksLikeObject(b) {
		return nil, &DecodeError{Kind: ParseFailed, Err: errors.New("not a JSON object")}
	}
	var w outboundWire
	if err := json.Unmarshal(b, &w); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return nil, &DecodeError{Kind: ParseFailed, Err: err}
		}
		if te.Field == "type" || te.Field == "" {
			return nil, &DecodeError{Kind: Malformed, Field: "type", Err: err}
		}
		if _, known := outboundFields[w.Type]; !known {
			return nil, &DecodeError{Kind: Unknown, FrameType: w.Type}
		}
		return nil, &DecodeError{Kind: Malformed, FrameType: w.Type, Field: te.Field, Err: err}
	}
	mal := func(field string) (Frame, error) {
		return nil, &DecodeError{Kind: Malformed, FrameType: w.Type, Field: field}
	}
	switch w.Type {
	case TypeHello:
		h := Hello{Key: w.Key, ChatID: w.ChatID, Tools: w.Tools}
		if w.Vocabulary != nil {
			h.Vocabulary = *w.Vocabulary
		}
		if !isAbsent(w.Accepts) {
			var acc []string
			if json.Unmarshal(w.Accepts, &acc) == nil && acc != nil {
				h.Accepts = acc
			}
		}
		return h, nil
	case TypeVocabulary:
		if w.Vocabulary == nil {
			return mal("vocabulary")
		}
		return VocabularyFrame{Vocabulary: *w.Vocabulary}, nil
	case TypeTurn:
		if w.TurnID == "" {
			return mal("turn_id")
		}
		return Turn{TurnID: w.TurnID, ClientContext: w.ClientContext, Text: w.Text, Images: w.Images}, nil
	case TypeReset:
		return Reset{}, nil
	case TypeStop:
		if w.TurnIDs == nil {
			return mal("turn_ids")
		}
		return Stop{TurnIDs: w.TurnIDs}, nil
	case TypePlayback:
		if w.TurnID == "" {
			return mal("turn_id")
		}
		return Playback{TurnID: w.TurnID, Ended: w.Ended}, nil
	case TypeToolResult:
		if w.ID == "" {
			return mal("id")
		}
		if w.Result == nil {
			return mal("result")
		}
		return ToolResult{ID: w.ID, TurnID: w.TurnID, Result: *w.Result, Images: w.Images}, nil
	case "":
		return mal("type")
	}
	return nil, &DecodeError{Kind: Unknown, FrameType: w.Type}
}
