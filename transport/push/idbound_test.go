package push_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"yui/transport/push"
)

// Ids a backend mints are bounded: a longer one makes the frame malformed,
// so no id can fill the client's sets, stop frames or log lines.
func TestLongIDsAreMalformed(t *testing.T) {
	ok, long := strings.Repeat("i", push.MaxIDBytes), strings.Repeat("i", push.MaxIDBytes+1)
	for _, tc := range []struct{ frame, field string }{
		{`{"type":"render","turn_id":%q,"segments":[]}`, "turn_id"},
		{`{"type":"speech","turn_id":%q,"segments":[]}`, "turn_id"},
		{`{"type":"turn_end","turn_id":%q}`, "turn_id"},
		{`{"type":"error","turn_id":%q,"message":"x"}`, "turn_id"},
		{`{"type":"tool_status","turn_id":%q,"state":"done","tool_id":"t"}`, "turn_id"},
		{`{"type":"reasoning","turn_id":%q,"delta":"x"}`, "turn_id"},
		{`{"type":"tool_call","id":%q,"turn_id":"1","name":"look"}`, "id"},
		{`{"type":"tool_call","id":"c","turn_id":%q,"name":"look"}`, "turn_id"},
		{`{"type":"delegations","items":[{"id":%q,"title":"t","started_at":1,"state":"running"}]}`, "items.id"},
	} {
		if _, err := push.DecodeInbound([]byte(fmt.Sprintf(tc.frame, ok))); err != nil {
			t.Errorf("%s with a %d-byte id: %v", tc.frame, len(ok), err)
		}
		_, err := push.DecodeInbound([]byte(fmt.Sprintf(tc.frame, long)))
		var de *push.DecodeError
		if !errors.As(err, &de) || de.Kind != push.Malformed || de.Field != tc.field {
			t.Errorf("%s with a %d-byte id: %v, want malformed %s", tc.frame, len(long), err, tc.field)
		}
	}
}
