package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestName(t *testing.T) {
	if got := Name("files", "read_file"); got != "mcp_files__read_file" {
		t.Fatalf("plain name %q", got)
	}
	a, b := Name("files", "read.file"), Name("files", "read_file")
	if a == b || !strings.HasPrefix(a, "mcp_files__read_file_") {
		t.Fatalf("cleaned names clash: %q %q", a, b)
	}
	long := Name("files", strings.Repeat("x", 100))
	if len(long) > 64 || long == Name("files", strings.Repeat("x", 101)) {
		t.Fatalf("long name %q", long)
	}
}

func TestSchema(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"object","properties":{"a":{"type":"string"}}}`: `{"properties":{"a":{"type":"string"}},"type":"object"}`,
		`{"properties":{}}`: `{"properties":{},"type":"object"}`,
		`{"type":"string"}`: `{"type":"object"}`,
		`null`:              `{"type":"object"}`,
	} {
		var v any
		_ = sdkJSON(in, &v)
		if got := string(schema(&sdk.Tool{InputSchema: v})); got != want {
			t.Errorf("schema(%s) = %s, want %s", in, got, want)
		}
	}
}

func sdkJSON(s string, v *any) error { return json.Unmarshal([]byte(s), v) }
