package looks

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/lookfolder"
)

// A look folder's own poses reach her page with its art; a bad pose file
// leaves the look usable (the built-in pose is drawn), says why in the
// settings window's note and in the log.
func TestAFoldersOwnPoses(t *testing.T) {
	dir := t.TempDir()
	svg := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle r="4"/></svg>`
	for _, id := range []string{"posed", "plain"} {
		os.MkdirAll(filepath.Join(dir, "looks", id), 0o755)
		os.WriteFile(filepath.Join(dir, "looks", id, "look.json"), []byte(`{"name":"`+id+`"}`), 0o644)
		for _, e := range lookfolder.Emotions {
			os.WriteFile(filepath.Join(dir, "looks", id, e+".svg"), []byte(svg), 0o644)
		}
	}
	os.WriteFile(filepath.Join(dir, "looks", "posed", "sit.svg"), []byte(svg), 0o644)
	os.WriteFile(filepath.Join(dir, "looks", "posed", "peek.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg"><image href="x.png"/></svg>`), 0o644)
	var log bytes.Buffer
	c := Catalog{ConfigDir: dir, Log: slog.New(slog.NewJSONHandler(&log, nil))}
	folders := c.Folders()
	a := c.Art("posed")
	if len(a.Poses) != 1 || !strings.HasPrefix(a.Poses["sit"], "data:image/svg+xml;base64,") {
		t.Fatalf("poses %v: sit only (peek.svg is refused)", a.Poses)
	}
	if p := c.Art("plain").Poses; p != nil {
		t.Fatalf("a folder without poses sent %v", p)
	}
	var posed, plain string
	for _, ch := range Choices(folders) {
		switch ch.ID {
		case "posed":
			if !ch.Available {
				t.Fatal("a bad pose file refused the look")
			}
			posed = ch.Note
		case "plain":
			plain = ch.Note
		}
	}
	if !strings.HasPrefix(posed, "draws the built-in pose instead: looks/posed/peek.svg: ") || plain != "" {
		t.Fatalf("notes: posed %q, plain %q", posed, plain)
	}
	if !strings.Contains(log.String(), `"msg":"look_pose_refused","look":"posed","err":"looks/posed/peek.svg: `) {
		t.Fatalf("log:\n%s", log.String())
	}
	if Problem("posed", folders) != "" {
		t.Fatal("a bad pose file makes the look a problem")
	}
}
