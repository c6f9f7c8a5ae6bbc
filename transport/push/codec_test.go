package push_test

import (
	"encoding/json"
	"errors"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"yui/transport/push"
)

func TestWebSocketURL(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"https becomes wss", "https://host:8646", "wss://host:8646/ws"},
		{"http becomes ws", "http://host:8646", "ws://host:8646/ws"},
		{"ws kept", "ws://host", "ws://host/ws"},
		{"wss kept", "wss://host", "wss://host/ws"},
		{"base path kept", "https://host/api/push", "wss://host/api/push/ws"},
		{"trailing slash", "https://host:8646/", "wss://host:8646/ws"},
		{"trailing slashes collapsed", "https://host/base///", "wss://host/base/ws"},
		{"upper-case scheme", "HTTPS://host", "wss://host/ws"},
		{"surrounding space", "  http://host  ", "ws://host/ws"},
		{"query kept", "http://host/p/?a=1", "ws://host/p/ws?a=1"},
		{"user info and fragment dropped", "https://u:p@host/x#frag", "wss://host/x/ws"},
		{"ipv6 host", "http://[::1]:9000", "ws://[::1]:9000/ws"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := push.WebSocketURL(tc.in)
			if err != nil || got != tc.want {
				t.Errorf("WebSocketURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
		})
	}
	for _, tc := range []struct{ name, in string }{{"blank", ""}, {"spaces only", "  \t"}} {
		t.Run(tc.name+" is not configured", func(t *testing.T) {
			if _, err := push.WebSocketURL(tc.in); !errors.Is(err, push.ErrNotConfigured) {
				t.Errorf("err = %v", err)
			}
		})
	}
	for _, in := range []string{"ftp://host", "host:8646", "https://", "://x"} {
		t.Run("rejects "+in, func(t *testing.T) {
			if _, err := push.WebSocketURL(in); err == nil || errors.Is(err, push.ErrNotConfigured) {
				t.Errorf("err = %v", err)
			}
		})
	}
}

func TestBackoffSchedule(t *testing.T) {
	want := []time.Duration{1, 2, 4, 8, 16, 30, 30, 30}
	for i, w := range want {
		if got := push.Backoff(i); got != w*time.Second {
			t.Errorf("Backoff(%d) = %v, want %v", i, got, w*time.Second)
		}
	}
	if push.Backoff(-1) != time.Second || push.Backoff(1000) != 30*time.Second {
		t.Error("Backoff bounds")
	}
}

func TestToolWaitTable(t *testing.T) {
	for _, tc := range []struct {
		name            string
		client, backend time.Duration
	}{
		{"body_action", 15 * time.Second, 20 * time.Second},
		{"look", 2 * time.Second, 7 * time.Second},
		{"rate_relation", 2 * time.Second, 7 * time.Second},
		{"address_character", 2 * time.Second, 7 * time.Second},
		{"browser", 32 * time.Second, 40 * time.Second},
	} {
		if c, b := push.ClientToolWait(tc.name), push.BackendToolWait(tc.name); c != tc.client || b != tc.backend {
			t.Errorf("%s waits = %v/%v, want %v/%v", tc.name, c, b, tc.client, tc.backend)
		}
	}
}

func TestDecodeInboundValidFrames(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want push.Frame
	}{
		{"ready", `{"type":"ready","chat_id":"c"}`, push.Ready{ChatID: "c"}},
		{"ready max_turn_bytes", `{"type":"ready","chat_id":"c","max_turn_bytes":1048576}`, push.Ready{ChatID: "c", MaxTurnBytes: 1 << 20}},
		{"render", `{"type":"render","turn_id":"1","source":"hermes","segments":[{"cues":[{"emotion_id":"happy"}],"speech":"All green."},{"cues":[{"emotion_id":"curious","emotion_text":"👂"}],"speech":"More?"}],"reasoning":"r"}`,
			push.Render{TurnID: "1", Source: "hermes", Reasoning: "r", Segments: []push.Segment{{Cues: []push.Cue{{EmotionID: "happy"}}, Speech: "All green."}, {Cues: []push.Cue{{EmotionID: "curious", EmotionText: "👂"}}, Speech: "More?"}}}},
		{"render empty segments", `{"type":"render","turn_id":"1","segments":[]}`, push.Render{TurnID: "1", Segments: []push.Segment{}}},
		{"speech", `{"type":"speech","turn_id":"1","segments":[{"speech":"Hi."}]}`, push.Speech{TurnID: "1", Segments: []push.Segment{{Speech: "Hi."}}}},
		{"turn_end", `{"type":"turn_end","turn_id":"1"}`, push.TurnEnd{TurnID: "1"}},
		{"turn_end usage", `{"type":"turn_end","turn_id":"1","usage":{"input_tokens":1200,"output_tokens":80,"total_tokens":1280}}`, push.TurnEnd{TurnID: "1", Usage: &push.Usage{InputTokens: 1200, OutputTokens: 80, TotalTokens: 1280}}},
		{"error", `{"type":"error","turn_id":"1","message":"Provider returned 429"}`, push.ErrorFrame{TurnID: "1", Message: "Provider returned 429"}},
		{"tool_status", `{"type":"tool_status","turn_id":"1","state":"running","tool_id":"read_file"}`, push.ToolStatus{TurnID: "1", State: "running", ToolID: "read_file"}},
		{"tool_call", `{"type":"tool_call","id":"c-1","turn_id":"1","name":"body_action","arguments":{"action":"stand"}}`, push.ToolCall{ID: "c-1", TurnID: "1", Name: "body_action", Arguments: json.RawMessage(`{"action":"stand"}`)}},
		{"tool_call without arguments", `{"type":"tool_call","id":"c-1","turn_id":"1","name":"look"}`, push.ToolCall{ID: "c-1", TurnID: "1", Name: "look", Arguments: json.RawMessage(`{}`)}},
		{"reasoning", `{"type":"reasoning","turn_id":"1","delta":"The log first."}`, push.Reasoning{TurnID: "1", Delta: "The log first."}},
		{"delegations", `{"type":"delegations","items":[{"id":"d-1","title":"Sort","started_at":1789365854947,"state":"running"},{"id":"d-2","title":"Logs","started_at":1,"state":"done","ended_at":2,"status":"ok","summary":"fine"}]}`,
			push.Delegations{Items: []push.Delegation{{ID: "d-1", Title: "Sort", StartedAt: 1789365854947, State: "running"}, {ID: "d-2", Title: "Logs", StartedAt: 1, State: "done", EndedAt: 2, Status: "ok", Summary: "fine"}}}},
		{"delegations empty", `{"type":"delegations","items":[]}`, push.Delegations{Items: []push.Delegation{}}},
		{"unknown fields ignored", `{"type":"reasoning","turn_id":"1","delta":"d","version":3,"extra":{"a":[1]}}`, push.Reasoning{TurnID: "1", Delta: "d"}},
		{"wrong-typed field the type does not read", `{"type":"render","turn_id":"1","segments":[],"items":5,"delta":[]}`, push.Render{TurnID: "1", Segments: []push.Segment{}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := push.DecodeInbound([]byte(tc.in))
			if err != nil {
				t.Fatalf("err = %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
}

func TestDecodeInboundRejects(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		kind      push.DecodeErrorKind
		frameType string
		field     string
	}{
		{"not json", `hello`, push.ParseFailed, "", ""},
		{"truncated", `{"type":"render"`, push.ParseFailed, "", ""},
		{"array", `[1,2]`, push.ParseFailed, "", ""},
		{"string", `"render"`, push.ParseFailed, "", ""},
		{"null", `null`, push.ParseFailed, "", ""},
		{"empty", ``, push.ParseFailed, "", ""},
		{"missing type", `{"turn_id":"1"}`, push.Malformed, "", "type"},
		{"type not a string", `{"type":5}`, push.Malformed, "", "type"},
		{"unknown type", `{"type":"telemetry","x":1}`, push.Unknown, "telemetry", ""},
		{"unknown type with odd fields", `{"type":"telemetry","turn_id":5}`, push.Unknown, "telemetry", ""},
		{"render without turn_id", `{"type":"render","segments":[]}`, push.Malformed, "render", "turn_id"},
		{"render turn_id number", `{"type":"render","turn_id":17,"segments":[]}`, push.Malformed, "render", "turn_id"},
		{"render without segments", `{"type":"render","turn_id":"1"}`, push.Malformed, "render", "segments"},
		{"render segments object", `{"type":"render","turn_id":"1","segments":{}}`, push.Malformed, "render", "segments"},
		{"render speech number", `{"type":"render","turn_id":"1","segments":[{"speech":1}]}`, push.Malformed, "render", "segments.speech"},
		{"render cue emotion_id number", `{"type":"render","turn_id":"1","segments":[{"cues":[{"emotion_id":3}]}]}`, push.Malformed, "render", "segments.cues.emotion_id"},
		{"render reasoning object", `{"type":"render","turn_id":"1","segments":[],"reasoning":{}}`, push.Malformed, "render", "reasoning"},
		{"speech without turn_id", `{"type":"speech","segments":[]}`, push.Malformed, "speech", "turn_id"},
		{"speech segments string", `{"type":"speech","turn_id":"1","segments":"x"}`, push.Malformed, "speech", "segments"},
		{"turn_end without turn_id", `{"type":"turn_end"}`, push.Malformed, "turn_end", "turn_id"},
		{"error without turn_id", `{"type":"error","message":"m"}`, push.Malformed, "error", "turn_id"},
		{"error message number", `{"type":"error","turn_id":"1","message":5}`, push.Malformed, "error", "message"},
		{"tool_status bad state", `{"type":"tool_status","turn_id":"1","state":"paused","tool_id":"x"}`, push.Malformed, "tool_status", "state"},
		{"tool_status without tool_id", `{"type":"tool_status","turn_id":"1","state":"done"}`, push.Malformed, "tool_status", "tool_id"},
		{"tool_call id number", `{"type":"tool_call","id":7,"turn_id":"1","name":"look","arguments":{}}`, push.Malformed, "tool_call", "id"},
		{"tool_call without id", `{"type":"tool_call","turn_id":"1","name":"look","arguments":{}}`, push.Malformed, "tool_call", "id"},
		{"tool_call without turn_id", `{"type":"tool_call","id":"c","name":"look","arguments":{}}`, push.Malformed, "tool_call", "turn_id"},
		{"tool_call without name", `{"type":"tool_call","id":"c","turn_id":"1","arguments":{}}`, push.Malformed, "tool_call", "name"},
		{"tool_call arguments string", `{"type":"tool_call","id":"c","turn_id":"1","name":"look","arguments":"{}"}`, push.Malformed, "tool_call", "arguments"},
		{"tool_call arguments array", `{"type":"tool_call","id":"c","turn_id":"1","name":"look","arguments":[]}`, push.Malformed, "tool_call", "arguments"},
		{"reasoning delta number", `{"type":"reasoning","turn_id":"1","delta":1}`, push.Malformed, "reasoning", "delta"},
		{"delegations without items", `{"type":"delegations"}`, push.Malformed, "delegations", "items"},
		{"delegation state unknown", `{"type":"delegations","items":[{"id":"d","title":"t","started_at":1,"state":"queued"}]}`, push.Malformed, "delegations", "items.state"},
		{"delegation status unknown", `{"type":"delegations","items":[{"id":"d","title":"t","started_at":1,"state":"done","status":"meh"}]}`, push.Malformed, "delegations", "items.status"},
		{"delegation started_at string", `{"type":"delegations","items":[{"id":"d","started_at":"now","state":"running"}]}`, push.Malformed, "delegations", "items.started_at"},
		{"delegation without id", `{"type":"delegations","items":[{"title":"t","started_at":1,"state":"running"}]}`, push.Malformed, "delegations", "items.id"},
		{"wrong field after an ignored one", `{"type":"render","items":5,"turn_id":"1","segments":[{"speech":false}]}`, push.Malformed, "render", "segments.speech"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := push.DecodeInbound([]byte(tc.in))
			var de *push.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v (frame %#v)", err, f)
			}
			if f != nil {
				t.Errorf("frame returned with a fatal error: %#v", f)
			}
			if de.Kind != tc.kind || de.FrameType != tc.frameType || de.Field != tc.field {
				t.Errorf("got kind %d type %q field %q; want %d %q %q", de.Kind, de.FrameType, de.Field, tc.kind, tc.frameType, tc.field)
			}
		})
	}
}

func TestDecodeInboundReadsBadOptionalFieldsAsAbsent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		want  push.Frame
		field string
	}{
		{"usage missing a count", `{"type":"turn_end","turn_id":"1","usage":{"input_tokens":1,"output_tokens":2}}`, push.TurnEnd{TurnID: "1"}, "usage"},
		{"usage count a string", `{"type":"turn_end","turn_id":"1","usage":{"input_tokens":"1","output_tokens":2,"total_tokens":3}}`, push.TurnEnd{TurnID: "1"}, "usage"},
		{"usage not an object", `{"type":"turn_end","turn_id":"1","usage":7}`, push.TurnEnd{TurnID: "1"}, "usage"},
		{"max_turn_bytes string", `{"type":"ready","chat_id":"c","max_turn_bytes":"big"}`, push.Ready{ChatID: "c"}, "max_turn_bytes"},
		{"max_turn_bytes zero", `{"type":"ready","chat_id":"c","max_turn_bytes":0}`, push.Ready{ChatID: "c"}, "max_turn_bytes"},
		{"max_turn_bytes negative", `{"type":"ready","chat_id":"c","max_turn_bytes":-5}`, push.Ready{ChatID: "c"}, "max_turn_bytes"},
		{"max_turn_bytes fraction", `{"type":"ready","chat_id":"c","max_turn_bytes":1.5}`, push.Ready{ChatID: "c"}, "max_turn_bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := push.DecodeInbound([]byte(tc.in))
			var de *push.DecodeError
			if !errors.As(err, &de) || de.Kind != push.Malformed || de.Field != tc.field {
				t.Fatalf("err = %v", err)
			}
			if !reflect.DeepEqual(f, tc.want) {
				t.Errorf("frame = %#v, want %#v", f, tc.want)
			}
		})
	}
	f, err := push.DecodeInbound([]byte(`{"type":"ready","chat_id":"c","max_turn_bytes":2e6}`))
	if err != nil || f.(push.Ready).MaxTurnBytes != 2000000 {
		t.Errorf("exponent integer: %#v %v", f, err)
	}
}

func TestEncodeDecodeRoundTripClientFrames(t *testing.T) {
	for _, f := range []push.Frame{
		push.Hello{Key: "k", ChatID: "c", Accepts: []string{"error"}, Vocabulary: push.Vocabulary{EmotionIDs: []string{"neutral"}, MotionIDs: []string{}, EmotionTextMode: "enum", EmotionTextMap: map[string]string{"😆": "joyfully"}},
			Tools: []push.ToolSchema{{Type: "function", Function: push.FunctionSchema{Name: "look", Description: "d", Parameters: json.RawMessage(`{"type":"object"}`)}}}},
		push.VocabularyFrame{Vocabulary: push.Vocabulary{EmotionIDs: []string{"neutral"}, MotionIDs: []string{}, EmotionTextMode: "free", EmotionTextMap: map[string]string{}}},
		push.Turn{TurnID: "1789365854947", ClientContext: "<client_context>\n</client_context>", Text: "How did the tests go?"},
		push.Turn{TurnID: "1", Text: "", Images: []string{"data:image/png;base64,AAAA"}},
		push.Reset{},
		push.Stop{TurnIDs: []string{"1", "2"}},
		push.Playback{TurnID: "1", Ended: "failed"},
		push.ToolResult{ID: "c-1", TurnID: "1", Result: "ok"},
		push.ToolResult{ID: "c-1", TurnID: "1", Result: "ok", Images: []string{"data:image/jpeg;base64,/9j/"}},
	} {
		t.Run(f.FrameType(), func(t *testing.T) {
			b, err := push.Encode(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := push.DecodeOutbound(b)
			if err != nil {
				t.Fatalf("decode %s: %v", b, err)
			}
			if !reflect.DeepEqual(got, f) {
				t.Errorf("round trip:\n got %#v\nwant %#v\nwire %s", got, f, b)
			}
		})
	}
}

func TestEncodeWireShapes(t *testing.T) {
	for _, tc := range []struct {
		f    push.Frame
		want string
	}{
		{push.Reset{}, `{"type":"reset"}`},
		{push.Stop{TurnIDs: []string{"1789365854947", "1789365854950"}}, `{"type":"stop","turn_ids":["1789365854947","1789365854950"]}`},
		{push.Playback{TurnID: "1", Ended: "failed"}, `{"type":"playback","turn_id":"1","ended":"failed"}`},
		{push.ToolResult{ID: "c-1a2b3c", TurnID: "1", Result: "ok"}, `{"type":"tool_result","id":"c-1a2b3c","turn_id":"1","result":"ok"}`},
		{push.Turn{TurnID: "1", ClientContext: "cc", Text: ""}, `{"type":"turn","turn_id":"1","client_context":"cc","text":""}`},
		{push.VocabularyFrame{}, `{"type":"vocabulary","vocabulary":{"emotion_ids":[],"motion_ids":[],"emotion_text_mode":"free","emotion_text_map":{}}}`},
		{push.Ready{ChatID: "c"}, `{"type":"ready","chat_id":"c"}`},
		{push.Delegations{}, `{"type":"delegations","items":[]}`},
	} {
		b, err := push.Encode(tc.f)
		if err != nil || string(b) != tc.want {
			t.Errorf("Encode(%T) = %s, %v; want %s", tc.f, b, err, tc.want)
		}
	}
}

func TestEncodeDecodeRoundTripBackendFrames(t *testing.T) {
	for _, f := range []push.Frame{
		push.Ready{ChatID: "c", MaxTurnBytes: 5},
		push.Render{TurnID: "1", Source: "s", Segments: []push.Segment{{Cues: []push.Cue{{EmotionID: "e", MotionID: "m", EmotionText: "t", Caption: "c"}}, Speech: "x"}}, Reasoning: "r"},
		push.Speech{TurnID: "1", Segments: []push.Segment{{Speech: "x"}}},
		push.TurnEnd{TurnID: "1", Usage: &push.Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3}},
		push.ErrorFrame{TurnID: "1", Message: "m"},
		push.ToolStatus{TurnID: "1", State: "failed", ToolID: "t"},
		push.ToolCall{ID: "c", TurnID: "1", Name: "look", Arguments: json.RawMessage(`{"at":"body"}`)},
		push.Reasoning{TurnID: "1", Delta: "d"},
		push.Delegations{Items: []push.Delegation{{ID: "d", Title: "t", StartedAt: 1, State: "done", EndedAt: 2, Status: "error", Summary: "s"}}},
	} {
		t.Run(f.FrameType(), func(t *testing.T) {
			b, err := push.Encode(f)
			if err != nil {
				t.Fatal(err)
			}
			got, err := push.DecodeInbound(b)
			if err != nil || !reflect.DeepEqual(got, f) {
				t.Errorf("round trip %s: %#v, %v", b, got, err)
			}
		})
	}
}

func TestDecodeOutboundHelloAcceptsNotAListIsAbsent(t *testing.T) {
	for _, in := range []string{
		`{"type":"hello","key":"k","chat_id":"c","accepts":"error"}`,
		`{"type":"hello","key":"k","chat_id":"c","accepts":[1,2]}`,
		`{"type":"hello","key":"k","chat_id":"c","accepts":{"error":true}}`,
		`{"type":"hello","key":"k","chat_id":"c"}`,
	} {
		f, err := push.DecodeOutbound([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if h := f.(push.Hello); h.Accepts != nil {
			t.Errorf("%s: accepts = %v, want absent", in, h.Accepts)
		}
	}
}

func TestDecodeOutboundRejects(t *testing.T) {
	for _, tc := range []struct{ in, field string }{
		{`{"type":"turn","text":"x"}`, "turn_id"},
		{`{"type":"tool_result","turn_id":"1","result":"ok"}`, "id"},
		{`{"type":"tool_result","id":"c","turn_id":"1"}`, "result"},
		{`{"type":"stop"}`, "turn_ids"},
		{`{"type":"playback"}`, "turn_id"},
		{`{"type":"vocabulary"}`, "vocabulary"},
		{`{"type":"turn","turn_id":"1","images":"x"}`, "images"},
	} {
		_, err := push.DecodeOutbound([]byte(tc.in))
		var de *push.DecodeError
		if !errors.As(err, &de) || de.Kind != push.Malformed || de.Field != tc.field {
			t.Errorf("%s: err = %v, want malformed %s", tc.in, err, tc.field)
		}
	}
}

func TestHelloLogValueHidesKey(t *testing.T) {
	var b strings.Builder
	l := slog.New(slog.NewTextHandler(&b, nil))
	l.Info("x", "hello", push.Hello{Key: "topsecret", ChatID: "c"})
	if strings.Contains(b.String(), "topsecret") || !strings.Contains(b.String(), "chat_id=c") {
		t.Errorf("log = %s", b.String())
	}
}

func TestVocabularyEqual(t *testing.T) {
	a := push.Vocabulary{EmotionIDs: []string{"a"}, EmotionTextMode: "free"}
	b := push.Vocabulary{EmotionIDs: []string{"a"}, MotionIDs: []string{}, EmotionTextMap: map[string]string{}, EmotionTextMode: "free"}
	if !a.Equal(b) {
		t.Error("nil and empty should be equal")
	}
	c := b
	c.EmotionTextMap = map[string]string{"x": "y"}
	if a.Equal(c) || a.Equal(push.Vocabulary{EmotionIDs: []string{"b"}}) {
		t.Error("different vocabularies equal")
	}
}

func TestFrameLimit(t *testing.T) {
	if push.FrameLimit(push.Turn{}, 0) != push.MaxFrameBytes || push.FrameLimit(push.Turn{}, 5<<20) != 5<<20 {
		t.Error("turn limit")
	}
	if push.FrameLimit(push.ToolResult{}, 5<<20) != push.MaxFrameBytes {
		t.Error("text-only tool_result must keep the text frame cap")
	}
	if push.FrameLimit(push.ToolResult{Images: []string{"x"}}, 5<<20) != 5<<20 || push.FrameLimit(push.ToolResult{Images: []string{"x"}}, 0) != push.MaxFrameBytes {
		t.Error("image tool_result limit")
	}
	if push.FrameLimit(push.Playback{}, 5<<20) != push.MaxFrameBytes {
		t.Error("playback limit")
	}
}
