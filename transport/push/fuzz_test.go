package push_test

import (
	"bytes"
	"errors"
	"testing"

	"yui/transport/push"
)

// FuzzDecodeInbound feeds arbitrary bytes to the inbound decoder. It must
// never panic, must classify every failure, and a frame it returns must
// survive Encode → DecodeInbound → Encode unchanged.
func FuzzDecodeInbound(f *testing.F) {
	for _, s := range []string{
		`{"type":"ready","chat_id":"yui-3f9a2c1d","max_turn_bytes":1048576}`,
		`{"type":"render","turn_id":"1789365854947","source":"hermes","segments":[{"cues":[{"emotion_id":"happy"}],"speech":"All green."},{"cues":[{"emotion_id":"curious","emotion_text":"👂"}],"speech":"Want the slow ones listed?"}]}`,
		`{"type":"speech","turn_id":"1","segments":[{"speech":"[SILENT]"}]}`,
		`{"type":"turn_end","turn_id":"1","usage":{"input_tokens":1200,"output_tokens":80,"total_tokens":1280}}`,
		`{"type":"error","turn_id":"1","message":"Provider returned 429: rate limit reached"}`,
		`{"type":"tool_status","turn_id":"1","state":"running","tool_id":"read_file"}`,
		`{"type":"tool_call","id":"c-1a2b3c","turn_id":"1","name":"body_action","arguments":{"action":"sit_on_window","app":"Notes"}}`,
		`{"type":"reasoning","turn_id":"1","delta":"The log is the first place to look."}`,
		`{"type":"delegations","items":[{"id":"d-5a03","title":"Check","started_at":1789365123000,"state":"done","ended_at":1789365701000,"status":"ok","summary":"fine"}]}`,
		`{"type":"render","items":5,"turn_id":"1","segments":[{"speech":false}]}`,
		`{"type":"telemetry"}`, `[1]`, `null`, `{"type":5}`, "{\"type\":\"render\",\"turn_id\":\"\xff\",\"segments\":[]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := push.DecodeInbound(b)
		if err != nil {
			var de *push.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("unclassified error %T: %v", err, err)
			}
			switch de.Kind {
			case push.ParseFailed, push.Unknown:
				if fr != nil {
					t.Fatalf("frame with a %d error", de.Kind)
				}
			case push.Malformed:
				if de.Field == "" {
					t.Fatal("malformed without a field")
				}
			default:
				t.Fatalf("kind %d", de.Kind)
			}
			if fr == nil {
				return
			}
		}
		enc, err := push.Encode(fr)
		if err != nil {
			t.Fatalf("encode %#v: %v", fr, err)
		}
		again, err := push.DecodeInbound(enc)
		if err != nil {
			t.Fatalf("re-decode %s: %v", enc, err)
		}
		enc2, err := push.Encode(again)
		if err != nil || !bytes.Equal(enc, enc2) {
			t.Fatalf("not stable:\n%s\n%s", enc, enc2)
		}
	})
}
