package route

import (
	"strings"
	"testing"

	"yui/app/view"
)

func TestMindSaveArgsRedacted(t *testing.T) {
	body := `{"type":"mind_save","request_id":"m1","preset":"p-00000001","mcp":{"servers":[{"name":"gh","command":"/bin/mcp-gh","args":["--token","ghp_secret"]}],"grants":[]}}`
	got := string(Redacted(view.Message{Type: view.TypeMindSave, Body: []byte(body)}))
	if strings.Contains(got, "ghp_secret") || !strings.Contains(got, `"args":"(redacted)"`) || !strings.Contains(got, "/bin/mcp-gh") {
		t.Fatalf("redacted %s", got)
	}
}
