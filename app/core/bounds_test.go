package core

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"yui/app/settings"
	"yui/app/view"
	"yui/transport/push"
	"yui/transport/pushserver"
)

const boundsKey = "bounds-key"

// pushBackend is a pushserver on loopback that a preset points at.
type pushBackend struct {
	srv   *pushserver.Server
	url   string
	chats chan string
}

func newPushBackend(t *testing.T) *pushBackend {
	t.Helper()
	b := &pushBackend{chats: make(chan string, 8)}
	b.srv = pushserver.New(pushserver.Config{Key: boundsKey, Hooks: pushserver.Hooks{
		Connected: func(chatID string, _ push.Hello) { b.chats <- chatID },
	}})
	h := httptest.NewServer(b.srv)
	t.Cleanup(func() { b.srv.Close(); h.Close() })
	b.url = h.URL
	return b
}

func (b *pushBackend) chat(t *testing.T) string {
	t.Helper()
	select {
	case id := <-b.chats:
		return id
	case <-time.After(15 * time.Second):
		t.Fatal("the core did not connect to the backend")
	}
	return ""
}

// coreOn starts a core whose only preset uses the backend.
func coreOn(t *testing.T, b *pushBackend) (*started, settings.Preset) {
	t.Helper()
	dir := t.TempDir()
	s, _, err := settings.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.Update(func(x *settings.Settings) { x.Presets[0].ChatBaseURL, x.Presets[0].Key = b.url, boundsKey })
	st := startCore(t, Options{ConfigDir: dir})
	return st, st.c.Settings().Get().Presets[0]
}

// A long reasoning stream reaches the page as bounded messages: deltas,
// or the capped whole text (the newest 64 KiB, marked cut) — not the whole
// text again per delta (300 × 100 KB made 4.5 GB before).
func TestLongReasoningReachesThePageBounded(t *testing.T) {
	b := newPushBackend(t)
	st, p := coreOn(t, b)
	conn := st.dial(t, view.RolePet, p.ID)
	conn.SetReadLimit(-1) // a browser reads messages of any size
	page := readPage(conn)
	chat := b.chat(t)
	const n = 60
	for i := range n {
		delta := strings.Repeat("r", 100_000) + fmt.Sprintf("<%04d>", i)
		if err := b.srv.SendReasoning(chat, "bg-1", delta); err != nil {
			t.Fatal(err)
		}
	}
	last := fmt.Sprintf("<%04d>", n-1)
	var shown string
	page.wait(t, "the last delta shown", func(all []map[string]any, _ map[string]map[string]any) bool {
		shown = ""
		for _, m := range all {
			if m["type"] != "reasoning" {
				continue
			}
			if m["append"] == true {
				shown += m["text"].(string)
			} else {
				shown = m["text"].(string)
			}
		}
		return strings.HasSuffix(shown, last)
	})
	total := 0
	for _, m := range page.all {
		if m["type"] == "reasoning" {
			raw, _ := json.Marshal(m)
			total += len(raw)
		}
	}
	if limit := n * 64 << 10; total > limit {
		t.Fatalf("the page got %d bytes of reasoning for %d deltas of 100 KB, over %d", total, n, limit)
	}
	if len(shown) > 64<<10 || page.latest["reasoning"]["cut"] != true {
		t.Fatalf("the page shows %d bytes, cut %v", len(shown), page.latest["reasoning"]["cut"])
	}
}
