package lookfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sitSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 240"><rect x="60" y="150" width="80" height="90" fill="#123456"/></svg>`

func TestPosesAreOptionalAndRead(t *testing.T) {
	cfg := t.TempDir()
	writeLook(t, cfg, "plain", `{"name": "Plain"}`, nil)
	writeLook(t, cfg, "posed", `{"name": "Posed"}`, map[string]string{
		"sit.svg": sitSVG, "peek.svg": goodSVG, "sleep.svg": goodSVG, "walk-1.svg": goodSVG, "walk-2.svg": sitSVG,
	})
	ls, err := Scan(cfg, []string{"yui"})
	if err != nil || len(ls) != 2 {
		t.Fatalf("Scan: %v, %d looks", err, len(ls))
	}
	plain, posed := ls[0], ls[1]
	if plain.Err != nil || plain.Poses != nil || plain.PoseErrs != nil {
		t.Fatalf("a folder without pose files: err %v, poses %v, pose errors %v", plain.Err, plain.Poses, plain.PoseErrs)
	}
	if posed.Err != nil || len(posed.PoseErrs) != 0 {
		t.Fatalf("posed: %v %v", posed.Err, posed.PoseErrs)
	}
	for _, p := range Poses {
		if len(posed.Poses[p]) == 0 {
			t.Errorf("pose %s not read", p)
		}
	}
	if !strings.Contains(string(posed.Poses["sit"]), `fill="#123456"`) {
		t.Errorf("sit.svg: %s", posed.Poses["sit"])
	}
	// Sanitised like the emotions: the editor's extras are gone.
	if strings.Contains(string(posed.Poses["peek"]), "inkscape") {
		t.Errorf("peek.svg not sanitised: %s", posed.Poses["peek"])
	}
}

func TestABadPoseFileFallsBackAndSaysWhy(t *testing.T) {
	cfg := t.TempDir()
	writeLook(t, cfg, "ocean", `{"name": "Ocean"}`, map[string]string{
		"sit.svg":    `<svg xmlns="http://www.w3.org/2000/svg">` + "\n" + `<script>alert(1)</script></svg>`,
		"peek.svg":   sitSVG,
		"sleep.svg":  strings.Repeat(" ", MaxSVGBytes+1),
		"walk-1.svg": sitSVG,
	})
	ls, err := Scan(cfg, nil)
	if err != nil || len(ls) != 1 {
		t.Fatalf("Scan: %v %v", err, ls)
	}
	l := ls[0]
	if l.Err != nil || len(l.Art) != len(Emotions) {
		t.Fatalf("the look must still be usable: err %v, %d emotions", l.Err, len(l.Art))
	}
	if _, ok := l.Poses["peek"]; !ok || len(l.Poses) != 1 {
		t.Fatalf("poses %v: only peek.svg is good (walk-1 needs walk-2)", keys(l.Poses))
	}
	var got []string
	for _, e := range l.PoseErrs {
		got = append(got, e.Error())
	}
	want := []string{
		"looks/ocean/sit.svg: line 2: <script> is not allowed",
		"looks/ocean/sleep.svg: too large (131073 bytes; at most 131072)",
		"looks/ocean/walk-2.svg: missing (the walk is two frames, walk-1.svg and walk-2.svg; walk-1.svg alone is not used)",
	}
	if len(got) != len(want) {
		t.Fatalf("pose errors:\n%s", strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("pose error %d: %q, want it to start %q", i, got[i], want[i])
		}
	}
}

func TestABrokenWalkFrameDropsBoth(t *testing.T) {
	cfg := t.TempDir()
	writeLook(t, cfg, "w", `{"name": "W"}`, map[string]string{"walk-1.svg": `<svg>`, "walk-2.svg": sitSVG})
	l := Read(filepath.Join(cfg, Dir), "w", nil)
	if l.Err != nil || l.Poses != nil {
		t.Fatalf("err %v, poses %v: a walk with a bad frame is not used", l.Err, keys(l.Poses))
	}
	if len(l.PoseErrs) != 1 || !strings.HasPrefix(l.PoseErrs[0].Error(), "looks/w/walk-1.svg: ") {
		t.Fatalf("pose errors %v: one, naming walk-1.svg", l.PoseErrs)
	}
}

func TestAPoseThatIsNotAFileIsRefused(t *testing.T) {
	cfg := t.TempDir()
	writeLook(t, cfg, "d", `{"name": "D"}`, nil)
	if err := os.Mkdir(filepath.Join(cfg, Dir, "d", "sit.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	l := Read(filepath.Join(cfg, Dir), "d", nil)
	if l.Err != nil || len(l.PoseErrs) != 1 || l.PoseErrs[0].Error() != "looks/d/sit.svg: not a regular file" {
		t.Fatalf("err %v, pose errors %v", l.Err, l.PoseErrs)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
