package lookfolder

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Dir is the looks folder's name inside the config dir.
const Dir = "looks"

// Manifest is the file every look folder has.
const Manifest = "look.json"

// Limits.
const (
	MaxSVGBytes      = 128 << 10 // one emotion's SVG
	MaxManifestBytes = 4 << 10
	MaxNameRunes     = 40
	MaxFolders       = 32 // look folders read; more are ignored (and said)
)

// Emotions are the ten emotions every look draws (client-notes §4), one
// SVG file each: <emotion>.svg.
var Emotions = []string{"neutral", "happy", "angry", "sad", "relaxed", "surprised", "thinking", "curious", "sleepy", "embarrassed"}

// Poses are the pose drawings an SVG look folder may add, each optional,
// one SVG file each: <pose>.svg (docs/looks.md). A posture without its
// file (or with a file that is refused) is drawn with the built-in pose.
// walk-1 and walk-2 are the walk cycle's two frames and go together.
var Poses = []string{"sit", "peek", "sleep", "walk-1", "walk-2"}

// Look is one look folder: usable (Err nil, Art holds every emotion's
// sanitised SVG) or not (Err names the file at fault).
type Look struct {
	// ID is the folder's name, which is what a preset's look names.
	ID string
	// Name is the manifest's display name ("" when unreadable).
	Name string
	// Art maps each emotion to its sanitised SVG document.
	Art map[string][]byte
	// Poses maps each pose the folder draws itself (Poses) to its
	// sanitised SVG; the others are drawn with the built-in poses.
	Poses map[string][]byte
	// PoseErrs say why a pose file present in the folder is not used (the
	// look still is, with the built-in pose); each starts with the path of
	// the file, like Err.
	PoseErrs []error
	// Err says why the folder cannot be used; it starts with the path of
	// the file at fault relative to the config dir (looks/<id>/<file>).
	Err error
	// VRM is set for a VRM look folder (model.vrm; Art is then nil).
	VRM *VRM
}

// manifest is look.json.
type manifest struct {
	Name string `json:"name"`
	// A VRM look's options (docs/looks.md); ignored for SVG looks.
	Breathing  string `json:"breathing,omitempty"`
	TouchTurns bool   `json:"touch_turns,omitempty"`
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// Scan reads every look folder in <configDir>/looks, in name order. A
// missing looks folder is no looks and no error. reserved are the
// built-in looks' ids: a folder with one of those names is refused.
func Scan(configDir string, reserved []string) ([]Look, error) {
	root := filepath.Join(configDir, Dir)
	ents, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lookfolder: read %s: %w", root, err)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	var out []Look
	for _, e := range ents {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if len(out) == MaxFolders {
			break
		}
		out = append(out, Read(root, e.Name(), reserved))
	}
	return out, nil
}

// Read reads and validates the look folder id in root (the looks folder).
func Read(root, id string, reserved []string) Look {
	l := Look{ID: id}
	rel := func(file string) string { return Dir + "/" + id + "/" + file }
	switch {
	case !idPattern.MatchString(id):
		l.Err = fmt.Errorf("%s: the folder name must be 1–32 lower-case letters, digits, - or _, starting with a letter or digit", Dir+"/"+id)
		return l
	case contains(reserved, id):
		l.Err = fmt.Errorf("%s: %q is the name of a built-in look; rename the folder", Dir+"/"+id, id)
		return l
	}
	dir := filepath.Join(root, id)
	b, err := readBounded(filepath.Join(dir, Manifest), MaxManifestBytes)
	if err != nil {
		l.Err = fmt.Errorf("%s: %w", rel(Manifest), err)
		return l
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		l.Err = fmt.Errorf("%s: not valid JSON: %w", rel(Manifest), err)
		return l
	}
	m.Name = strings.TrimSpace(m.Name)
	if m.Name == "" || utf8.RuneCountInString(m.Name) > MaxNameRunes {
		l.Err = fmt.Errorf("%s: \"name\" must be 1–%d characters", rel(Manifest), MaxNameRunes)
		return l
	}
	l.Name = m.Name
	if _, err := os.Lstat(filepath.Join(dir, ModelFile)); err == nil {
		v, err := readVRM(dir, m, rel)
		if err != nil {
			l.Err = err
			return l
		}
		l.VRM = v
		return l
	}
	art := map[string][]byte{}
	for _, e := range Emotions {
		file := e + ".svg"
		b, err := readBounded(filepath.Join(dir, file), MaxSVGBytes)
		if err != nil {
			l.Err = fmt.Errorf("%s: %w", rel(file), err)
			return l
		}
		clean, err := Sanitize(b)
		if err != nil {
			l.Err = fmt.Errorf("%s: %w", rel(file), err)
			return l
		}
		art[e] = clean
	}
	l.Art = art
	l.Poses, l.PoseErrs = readPoses(dir, rel)
	return l
}

// readPoses reads the optional pose files of the folder dir: each one
// present is bounded and sanitised like an emotion's; one that fails is
// left out with its error (the built-in pose is drawn). The walk's two
// frames are used together or not at all.
func readPoses(dir string, rel func(string) string) (map[string][]byte, []error) {
	poses := map[string][]byte{}
	var errs []error
	for _, p := range Poses {
		file := p + ".svg"
		if _, err := os.Lstat(filepath.Join(dir, file)); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		b, err := readBounded(filepath.Join(dir, file), MaxSVGBytes)
		if err == nil {
			b, err = Sanitize(b)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", rel(file), err))
			continue
		}
		poses[p] = b
	}
	_, one := poses["walk-1"]
	_, two := poses["walk-2"]
	if one != two {
		have, lack := "walk-1", "walk-2"
		if two {
			have, lack = lack, have
		}
		delete(poses, have)
		if !slices.ContainsFunc(errs, func(e error) bool { return strings.HasPrefix(e.Error(), rel(lack+".svg")+":") }) {
			errs = append(errs, fmt.Errorf("%s: missing (the walk is two frames, walk-1.svg and walk-2.svg; %s.svg alone is not used)", rel(lack+".svg"), have))
		}
	}
	if len(poses) == 0 {
		poses = nil
	}
	return poses, errs
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// readBounded reads a regular file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New("missing")
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > limit {
		return nil, fmt.Errorf("too large (%d bytes; at most %d)", fi.Size(), limit)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("too large (at most %d bytes)", limit)
	}
	return b, nil
}
