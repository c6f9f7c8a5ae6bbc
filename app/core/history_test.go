package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/settings"
	"yui/app/view"
)

// An older Yui's damaged transcript and delegation-history files are kept
// aside at the start (.bad) and her page gets a notice saying so; her
// history starts afresh and nothing is lost.
func TestDamagedOlderHistoryFilesAreKeptAsideWithANotice(t *testing.T) {
	for _, file := range []string{"transcript-%s.json", "delegation-history-%s.json"} {
		t.Run(strings.TrimSuffix(strings.Split(file, "-%s")[0], "-"), func(t *testing.T) {
			b := newPushBackend(t)
			dir := t.TempDir()
			s, _, err := settings.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			s.Update(func(x *settings.Settings) { x.Presets[0].ChatBaseURL, x.Presets[0].Key = b.url, boundsKey })
			id := s.Get().Presets[0].ID
			path := filepath.Join(dir, strings.Replace(file, "%s", id, 1))
			if err := os.WriteFile(path, []byte("{damaged"), 0o600); err != nil {
				t.Fatal(err)
			}
			st := startCore(t, Options{ConfigDir: dir})
			_, page := st.connectedPet(t)
			page.wait(t, "a notice of the damaged file", func(_ []map[string]any, l map[string]map[string]any) bool {
				n := l[view.TypeNotice]
				text, _ := n["text"].(string)
				return strings.Contains(text, "could not be read") && strings.Contains(text, path+".bad")
			})
			if b, err := os.ReadFile(path + ".bad"); err != nil || string(b) != "{damaged" {
				t.Fatalf("the damaged file is not kept: %q %v", b, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "history-"+id+".db")); err != nil {
				t.Fatalf("no history database: %v", err)
			}
		})
	}
}
