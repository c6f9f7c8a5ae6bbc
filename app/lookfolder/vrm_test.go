package lookfolder

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

var vrmTestdata = filepath.Join("..", "..", "frontend", "tests", "vrm")

func testModel(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vrmTestdata, name))
	if err != nil {
		t.Fatalf("%v (run node frontend/tests/vrm/generate.mjs)", err)
	}
	return b
}

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestImportMakesAVRMLookFolder(t *testing.T) {
	cfg := t.TempDir()
	id, name, err := ImportVRM(cfg, "My Model (final).vrm", bytes.NewReader(testModel(t, "yui-test-1.0.vrm")), []string{"yui"})
	if err != nil {
		t.Fatal(err)
	}
	if id != "my-model-final" || name != "Yui test model" {
		t.Fatalf("id %q name %q", id, name)
	}
	// A second import of the same file gets a new folder.
	id2, _, err := ImportVRM(cfg, "My Model (final).vrm", bytes.NewReader(testModel(t, "yui-test-0.x.vrm")), nil)
	if err != nil || id2 != "my-model-final-2" {
		t.Fatalf("second import %q %v", id2, err)
	}
	// A file named like a built-in look does not take its name.
	id3, _, err := ImportVRM(cfg, "yui.vrm", bytes.NewReader(testModel(t, "yui-test-1.0.vrm")), []string{"yui"})
	if err != nil || id3 != "yui-2" {
		t.Fatalf("reserved name %q %v", id3, err)
	}
	fi, err := os.Stat(filepath.Join(cfg, Dir, id, ModelFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("model file %v %v", fi, err)
	}
	looks, err := Scan(cfg, []string{"yui"})
	if err != nil {
		t.Fatal(err)
	}
	if len(looks) != 3 {
		t.Fatalf("looks %+v", looks)
	}
	l := looks[0]
	if l.Err != nil || l.VRM == nil || l.Art != nil || l.Name != "Yui test model" {
		t.Fatalf("look %+v", l)
	}
	v := l.VRM
	if v.Info.Version != "1.0" || v.Breathing != BreathingOff || v.TouchTurns || v.Thumb != nil || len(v.Rev) != 16 {
		t.Fatalf("vrm %+v", v)
	}
	if !reflect.DeepEqual(v.Mapping.EmotionIDs(), []string{"neutral", "happy", "angry", "sad", "relaxed", "surprised", "thinking", "curious", "sleepy", "embarrassed"}) {
		t.Fatalf("emotions %v", v.Mapping.EmotionIDs())
	}
	if looks[1].VRM.Info.Version != "0.x" {
		t.Fatalf("second: %+v", looks[1])
	}
	// No temporary folder is left.
	ents, _ := os.ReadDir(filepath.Join(cfg, Dir))
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("left behind: %s", e.Name())
		}
	}
}

func TestImportRefusesBadFilesAndLeavesNothing(t *testing.T) {
	good := testModel(t, "yui-test-1.0.vrm")
	corrupt := bytes.Clone(good)
	corrupt[20] = '['
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"truncated", good[:len(good)/3], "the file is cut short"},
		{"corrupted", corrupt, "its glTF JSON does not parse"},
		{"not a model", []byte("hello there, not a model at all"), "does not start as a glTF binary"},
		{"an animation", testModel(t, "cheer.vrma"), "this is a VRM animation"},
	} {
		cfg := t.TempDir()
		_, _, err := ImportVRM(cfg, "x.vrm", bytes.NewReader(tc.b), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		ents, _ := os.ReadDir(filepath.Join(cfg, Dir))
		if len(ents) != 0 {
			t.Errorf("%s: left %v", tc.name, ents)
		}
	}
}

func TestImportRefusesATooLargeFile(t *testing.T) {
	cfg := t.TempDir()
	big := bytes.NewReader(make([]byte, MaxModelBytes+1))
	_, _, err := ImportVRM(cfg, "big.vrm", big, nil)
	if err == nil || !strings.Contains(err.Error(), "the file is too large (over 64 MiB") {
		t.Fatalf("%v", err)
	}
}

func TestVRMFolderOptionsMappingClipsAndThumbnail(t *testing.T) {
	cfg := t.TempDir()
	id, _, err := ImportVRM(cfg, "ocean.vrm", bytes.NewReader(testModel(t, "yui-test-1.0.vrm")), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cfg, Dir, id)
	os.WriteFile(filepath.Join(dir, "cheer.vrma"), testModel(t, "cheer.vrma"), 0o600)
	os.WriteFile(filepath.Join(dir, MappingFile), []byte(`{"emotions": {"smug": {"happy": 0.5, "thinking": 0.5}}, "motions": {"happy": "cheer"}}`), 0o600)
	if err := SetOptions(cfg, id, BreathingLow, true); err != nil {
		t.Fatal(err)
	}
	if err := SetThumbnail(cfg, id, pngOf(t, 128, 128)); err != nil {
		t.Fatal(err)
	}
	l := Read(filepath.Join(cfg, Dir), id, nil)
	if l.Err != nil {
		t.Fatal(l.Err)
	}
	v := l.VRM
	if v.Breathing != BreathingLow || !v.TouchTurns || v.Thumb == nil || !reflect.DeepEqual(v.Clips, []string{"cheer"}) {
		t.Fatalf("%+v", v)
	}
	if v.Mapping.Motions["happy"] != "cheer" || v.Mapping.Emotions["smug"]["thinking"] != 0.5 {
		t.Fatalf("mapping %+v", v.Mapping)
	}
	if p, ok := v.ModelPath("cheer.vrma"); !ok || p != filepath.Join(dir, "cheer.vrma") {
		t.Fatalf("clip path %q %v", p, ok)
	}
	for _, bad := range []string{"look.json", "../settings.json", "thumbnail.png", "other.vrma", ""} {
		if _, ok := v.ModelPath(bad); ok {
			t.Fatalf("served %q", bad)
		}
	}
	// The options keep the name.
	var m map[string]any
	b, _ := os.ReadFile(filepath.Join(dir, Manifest))
	json.Unmarshal(b, &m)
	if m["name"] != "Yui test model" || m["breathing"] != "low" || m["touch_turns"] != true {
		t.Fatalf("manifest %s", b)
	}
	// A new clip changes the revision (the page must not draw a cached one).
	rev := v.Rev
	os.WriteFile(filepath.Join(dir, "wave_two.vrma"), testModel(t, "cheer.vrma"), 0o600)
	if l := Read(filepath.Join(cfg, Dir), id, nil); l.Err != nil || l.VRM.Rev == rev {
		t.Fatalf("rev %v %v", l.Err, l.VRM)
	}

	checkBadPartsRefused(t, cfg, dir, id)
	if err := SetThumbnail(cfg, id, pngOf(t, 1024, 10)); err == nil || !strings.Contains(err.Error(), "at most 512×512") {
		t.Errorf("big thumbnail: %v", err)
	}
	if err := SetThumbnail(cfg, id, []byte("GIF89a")); err == nil || !strings.Contains(err.Error(), "not a PNG") {
		t.Errorf("gif thumbnail: %v", err)
	}
	if err := SetOptions(cfg, "nope", BreathingLow, false); err == nil {
		t.Error("options for a missing folder")
	}
	if err := SetOptions(cfg, id, "fast", false); err == nil {
		t.Error("bad breathing accepted")
	}
}

// checkBadPartsRefused writes each bad part into the VRM look folder dir
// in turn: Read refuses the folder naming the file; the part is put back.
func checkBadPartsRefused(t *testing.T, cfg, dir, id string) {
	t.Helper()
	for file, body := range map[string]string{
		MappingFile:  `{"motions": {"wave": "nothing"}}`,
		"Bad.vrma":   "x",
		"broke.vrma": "not a clip",
		Manifest:     `{"name": "X", "breathing": "fast"}`,
	} {
		old, had := os.ReadFile(filepath.Join(dir, file))
		os.WriteFile(filepath.Join(dir, file), []byte(body), 0o600)
		l := Read(filepath.Join(cfg, Dir), id, nil)
		if l.Err == nil || !strings.HasPrefix(l.Err.Error(), "looks/"+id+"/") {
			t.Errorf("%s: %v", file, l.Err)
		}
		if had == nil {
			os.WriteFile(filepath.Join(dir, file), old, 0o600)
		} else {
			os.Remove(filepath.Join(dir, file))
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"My Model (final)": "my-model-final", "___": "model", "…": "model", "-x-": "x",
		strings.Repeat("a", 40): strings.Repeat("a", 32), "Ünïcode 名前": "n-code",
	} {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
