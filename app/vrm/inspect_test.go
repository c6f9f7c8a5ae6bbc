package vrm

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The models tests/vrm/generate.mjs makes (checked in beside it).
var testdata = filepath.Join("..", "..", "frontend", "tests", "vrm")

func model(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata, name))
	if err != nil {
		t.Fatalf("%v (run node frontend/tests/vrm/generate.mjs)", err)
	}
	return b
}

func inspectBytes(b []byte) (Info, error) { return Inspect(bytes.NewReader(b), int64(len(b))) }

// glbJSON returns the JSON chunk of a GLB, decoded.
func glbJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	n := binary.LittleEndian.Uint32(b[12:])
	var m map[string]any
	if err := json.Unmarshal(b[20:20+n], &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// withJSON rebuilds a GLB with its JSON replaced (the binary chunk kept).
func withJSON(t *testing.T, b []byte, js map[string]any) []byte {
	t.Helper()
	n := binary.LittleEndian.Uint32(b[12:])
	bin := b[20+n:]
	text, err := json.Marshal(js)
	if err != nil {
		t.Fatal(err)
	}
	for len(text)%4 != 0 {
		text = append(text, ' ')
	}
	out := make([]byte, 20, 20+len(text)+len(bin))
	binary.LittleEndian.PutUint32(out[0:], glbMagic)
	binary.LittleEndian.PutUint32(out[4:], 2)
	binary.LittleEndian.PutUint32(out[12:], uint32(len(text)))
	binary.LittleEndian.PutUint32(out[16:], chunkJSON)
	out = append(append(out, text...), bin...)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(out)))
	return out
}

func TestGeneratedModelsAreUsable(t *testing.T) {
	wantExpr := []string{"aa", "angry", "blink", "blinkLeft", "blinkRight", "ee", "happy", "ih", "oh", "ou", "relaxed", "sad", "surprised", "thinking"}
	for _, tc := range []struct{ file, version, name string }{
		{"yui-test-1.0.vrm", Version1, "Yui test model"},
		{"yui-test-0.x.vrm", Version0, "Yui test model 0.x"},
	} {
		info, err := inspectBytes(model(t, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if info.Version != tc.version || info.Name != tc.name || !info.LookAt || !info.SpringBones {
			t.Errorf("%s: %+v", tc.file, info)
		}
		// 0.x names a neutral group too.
		expr := info.Expressions
		if tc.version == Version0 {
			want := append([]string{}, wantExpr...)
			want = append(want, "neutral")
			if !reflect.DeepEqual(sorted(expr), sorted(want)) {
				t.Errorf("%s expressions %v, want %v", tc.file, expr, want)
			}
		} else if !reflect.DeepEqual(expr, wantExpr) {
			t.Errorf("%s expressions %v, want %v", tc.file, expr, wantExpr)
		}
		if len(info.Bones) != 21 {
			t.Errorf("%s: %d bones %v", tc.file, len(info.Bones), info.Bones)
		}
	}
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestBadFilesAreRefusedSayingWhy(t *testing.T) {
	good := model(t, "yui-test-1.0.vrm")
	good0 := model(t, "yui-test-0.x.vrm")
	corrupt := func(at int, v byte) []byte {
		b := bytes.Clone(good)
		b[at] = v
		return b
	}
	noExt := func() []byte {
		js := glbJSON(t, good)
		delete(js, "extensions")
		js["extensionsUsed"] = []string{"VRMC_materials_mtoon", "KHR_materials_unlit"}
		return withJSON(t, good, js)
	}
	dropBone := func(b []byte, bone string) []byte {
		js := glbJSON(t, b)
		ext := js["extensions"].(map[string]any)
		if v, ok := ext["VRMC_vrm"]; ok {
			delete(v.(map[string]any)["humanoid"].(map[string]any)["humanBones"].(map[string]any), bone)
		} else {
			h := ext["VRM"].(map[string]any)["humanoid"].(map[string]any)
			var keep []any
			for _, x := range h["humanBones"].([]any) {
				if x.(map[string]any)["bone"] != bone {
					keep = append(keep, x)
				}
			}
			h["humanBones"] = keep
		}
		return withJSON(t, b, js)
	}
	viewOutside := func() []byte {
		js := glbJSON(t, good)
		js["bufferViews"].([]any)[3].(map[string]any)["byteOffset"] = 1 << 30
		return withJSON(t, good, js)
	}
	outsideImage := func() []byte {
		js := glbJSON(t, good)
		js["images"] = []any{map[string]any{"uri": "texture.png"}}
		return withJSON(t, good, js)
	}
	version := func() []byte {
		js := glbJSON(t, good)
		js["extensions"].(map[string]any)["VRMC_vrm"].(map[string]any)["specVersion"] = "2.0"
		return withJSON(t, good, js)
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "too short for a glTF binary"},
		{"truncated to half", good[:len(good)/2], fmt.Sprintf("the file is cut short: %d bytes of the %d its header declares", len(good)/2, len(good))},
		{"truncated in the header", good[:10], "too short"},
		{"trailing bytes", append(bytes.Clone(good), 0, 0, 0, 0), fmt.Sprintf("the file is damaged: %d bytes, but its header declares %d", len(good)+4, len(good))},
		{"magic corrupted", corrupt(0, 'x'), "does not start as a glTF binary"},
		{"version corrupted", corrupt(4, 9), "glTF binary version 9"},
		{"JSON chunk type corrupted", corrupt(16, 'X'), "first chunk is not the glTF JSON"},
		{"JSON corrupted", corrupt(20, '['), "its glTF JSON does not parse"},
		{"a glTF text file", []byte(`{"asset":{"version":"2.0"}}` + strings.Repeat(" ", 20)), "glTF text file (.gltf)"},
		{"a glTF without VRM", noExt(), "not a VRM model: the glTF has no VRM extension"},
		{"a VRM animation", model(t, "cheer.vrma"), "this is a VRM animation (.vrma)"},
		{"no head (1.0)", dropBone(good, "head"), "the humanoid lacks required bones: head"},
		{"no neck (0.x)", dropBone(good0, "neck"), "the humanoid lacks required bones: neck"},
		{"a view outside the buffer", viewOutside(), "buffer view 3 lies outside its buffer"},
		{"an outside image", outsideImage(), `refers to an outside image ("texture.png")`},
		{"VRM 2.0", version(), `VRM version "2.0" is not one this version reads`},
	} {
		_, err := inspectBytes(tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	// The binary chunk cut short: the header's length is made to match, so
	// only the chunk's own length is wrong.
	cut := bytes.Clone(good[:len(good)-100])
	binary.LittleEndian.PutUint32(cut[8:], uint32(len(cut)))
	if _, err := inspectBytes(cut); err == nil || !strings.Contains(err.Error(), "its binary chunk declares") {
		t.Errorf("binary chunk cut: %v", err)
	}
}

func TestAnimationIsChecked(t *testing.T) {
	b := model(t, "cheer.vrma")
	if err := InspectAnimation(bytes.NewReader(b), int64(len(b))); err != nil {
		t.Fatal(err)
	}
	m := model(t, "yui-test-1.0.vrm")
	if err := InspectAnimation(bytes.NewReader(m), int64(len(m))); err == nil || !strings.Contains(err.Error(), "no VRMC_vrm_animation") {
		t.Fatalf("a model as an animation: %v", err)
	}
	js := glbJSON(t, b)
	delete(js, "animations")
	nb := withJSON(t, b, js)
	if err := InspectAnimation(bytes.NewReader(nb), int64(len(nb))); err == nil || !strings.Contains(err.Error(), "holds no animation") {
		t.Fatalf("no animation: %v", err)
	}
}

func FuzzInspect(f *testing.F) {
	good, err := os.ReadFile(filepath.Join(testdata, "yui-test-1.0.vrm"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[:200])
	f.Add([]byte("glTF"))
	f.Fuzz(func(t *testing.T, b []byte) {
		inspectBytes(b) // must not panic
	})
}
