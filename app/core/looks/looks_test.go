package looks

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/lookfolder"
)

func TestBuiltInAndFolderLooks(t *testing.T) {
	dir := t.TempDir()
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>`
	os.MkdirAll(filepath.Join(dir, "looks", "mine"), 0o755)
	os.WriteFile(filepath.Join(dir, "looks", "mine", "look.json"), []byte(`{"name":"Mine"}`), 0o644)
	for _, e := range lookfolder.Emotions {
		os.WriteFile(filepath.Join(dir, "looks", "mine", e+".svg"), []byte(svg), 0o644)
	}
	c := Catalog{ConfigDir: dir, Log: slog.New(slog.DiscardHandler)}
	folders := c.Folders()
	ch := Choices(folders)
	if len(ch) != len(Builtin)+1 || ch[len(ch)-1].ID != "mine" || ch[len(ch)-1].Label != "Mine (look folder)" || !ch[len(ch)-1].Available {
		t.Fatalf("choices %+v", ch)
	}
	for look, want := range map[string]string{"yui": "", "mine": "", "nope": "not a look"} {
		if got := Problem(look, folders); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%s: %q", look, got)
		}
	}
	if a := c.Art("yui"); a.Emotions != nil {
		t.Fatalf("a built-in look got art: %v", a)
	}
	if a := c.Art("mine"); len(a.Emotions) != len(lookfolder.Emotions) || !strings.HasPrefix(a.Emotions["happy"], "data:image/svg+xml;base64,") {
		t.Fatalf("art %v", a)
	}
	if (Catalog{}).Folders() != nil {
		t.Fatal("no config dir has folders")
	}
}
