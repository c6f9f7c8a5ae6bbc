package push

import (
	"encoding/json"
	"fmt"
)

// Encode serializes a frame of either direction to its wire JSON. It fails
// only for a frame type this package does not know or for a hello whose tool
// parameters are not valid JSON.
func Encode(f Frame) ([]byte, error) {
	var v any
	switch f := f.(type) {
	case Hello:
		v = struct {
			Type       string       `json:"type"`
			Key        string       `json:"key"`
			ChatID     string       `json:"chat_id"`
			Accepts    []string     `json:"accepts,omitempty"`
			Vocabulary Vocabulary   `json:"vocabulary"`
			Tools      []ToolSchema `json:"tools,omitempty"`
		}{TypeHello, f.Key, f.ChatID, f.Accepts, f.Vocabulary.Normalized(), f.Tools}
	case VocabularyFrame:
		v = struct {
			Type       string     `json:"type"`
			Vocabulary Vocabulary `json:"vocabulary"`
		}{TypeVocabulary, f.Vocabulary.Normalized()}
	case Turn:
		v = struct {
			Type          string   `json:"type"`
			TurnID        string   `json:"turn_id"`
			ClientContext string   `json:"client_context"`
			Text          string   `json:"text"`
			Images        []string `json:"images,omitempty"`
		}{TypeTurn, f.TurnID, f.ClientContext, f.Text, f.Images}
	case Reset:
		return []byte(`{"type":"reset"}`), nil
	case Stop:
		ids := f.TurnIDs
		if ids == nil {
			ids = []string{}
		}
		v = struct {
			Type    string   `json:"type"`
			TurnIDs []string `json:"turn_ids"`
		}{TypeStop, ids}
	case Playback:
		v = struct {
			Type   string `json:"type"`
			TurnID string `json:"turn_id"`
			Ended  string `json:"ended"`
		}{TypePlayback, f.TurnID, f.Ended}
	case ToolResult:
		v = struct {
			Type   string   `json:"type"`
			ID     string   `json:"id"`
			TurnID string   `json:"turn_id"`
			Images []string `json:"images,omitempty"`
			Result string   `json:"result"`
		}{TypeToolResult, f.ID, f.TurnID, f.Images, f.Result}
	case Ready:
		v = struct {
			Type         string `json:"type"`
			ChatID       string `json:"chat_id"`
			MaxTurnBytes int    `json:"max_turn_bytes,omitempty"`
		}{TypeReady, f.ChatID, f.MaxTurnBytes}
	case Render:
		v = struct {
			Type      string    `json:"type"`
			TurnID    string    `json:"turn_id"`
			Source    string    `json:"source,omitempty"`
			Segments  []Segment `json:"segments"`
			Reasoning string    `json:"reasoning,omitempty"`
		}{TypeRender, f.TurnID, f.Source, nonNilSegments(f.Segments), f.Reasoning}
	case Speech:
		v = struct {
			Type     string    `json:"type"`
			TurnID   string    `json:"turn_id"`
			Segments []Segment `json:"segments"`
		}{TypeSpeech, f.TurnID, nonNilSegments(f.Segments)}
	case TurnEnd:
		v = struct {
			Type   string `json:"type"`
			TurnID string `json:"turn_id"`
			Usage  *Usage `json:"usage,omitempty"`
		}{TypeTurnEnd, f.TurnID, f.Usage}
	case ErrorFrame:
		v = struct {
			Type    string `json:"type"`
			TurnID  string `json:"turn_id"`
			Message string `json:"message"`
		}{TypeError, f.TurnID, f.Message}
	case ToolStatus:
		v = struct {
			Type   string `json:"type"`
			TurnID string `json:"turn_id"`
			State  string `json:"state"`
			ToolID string `json:"tool_id"`
		}{TypeToolStatus, f.TurnID, f.State, f.ToolID}
	case ToolCall:
		args := f.Arguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		v = struct {
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			TurnID    string          `json:"turn_id"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}{TypeToolCall, f.ID, f.TurnID, f.Name, args}
	case Reasoning:
		v = struct {
			Type   string `json:"type"`
			TurnID string `json:"turn_id"`
			Delta  string `json:"delta"`
		}{TypeReasoning, f.TurnID, f.Delta}
	case Delegations:
		items := f.Items
		if items == nil {
			items = []Delegation{}
		}
		v = struct {
			Type  string       `json:"type"`
			Items []Delegation `json:"items"`
		}{TypeDelegations, items}
	default:
		return nil, fmt.Errorf("push: encode: unknown frame %T", f)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("push: encode %s: %w", f.FrameType(), err)
	}
	return b, nil
}

func nonNilSegments(s []Segment) []Segment {
	if s == nil {
		return []Segment{}
	}
	return s
}

// FrameLimit returns the size limit in bytes of an outbound client frame,
// given the backend's stated max_turn_bytes (0 when absent): a turn frame and
// a tool_result carrying images may use max_turn_bytes; everything else, and
// both of those when the backend stated nothing, is capped at MaxFrameBytes.
func FrameLimit(f Frame, maxTurnBytes int) int {
	switch f := f.(type) {
	case Turn:
		if maxTurnBytes > 0 {
			return maxTurnBytes
		}
	case ToolResult:
		if len(f.Images) > 0 && maxTurnBytes > 0 {
			return maxTurnBytes
		}
	}
	return MaxFrameBytes
}
