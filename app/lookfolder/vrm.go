package lookfolder

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"yui/app/atomicfile"
	"yui/app/vrm"
)

// A VRM look folder (docs/looks.md): model.vrm beside look.json, an
// optional mapping.json and thumbnail.png, and optional .vrma clips.
const (
	ModelFile     = "model.vrm"
	MappingFile   = "mapping.json"
	ThumbnailFile = "thumbnail.png"
	ClipExt       = ".vrma"
)

// Limits of a VRM look folder.
const (
	MaxModelBytes     = 64 << 20 // a VRoid Studio model with 2K textures is 10–30 MB
	MaxClipBytes      = 8 << 20
	MaxClips          = 16
	MaxThumbnailBytes = 256 << 10
	MaxThumbnailSide  = 512
)

// Breathing options of a VRM look.
const (
	BreathingLow = "low"
	BreathingOff = "off"
)

// VRM is a usable VRM look folder.
type VRM struct {
	// Dir is the folder's path.
	Dir string
	// Info is what the model has (app/vrm).
	Info vrm.Info
	// Mapping is the emotion and motion mapping, resolved for the model.
	Mapping vrm.Mapping
	// Clips are the .vrma clips' names (without the extension), sorted.
	Clips []string
	// Breathing is BreathingLow or BreathingOff (the default).
	Breathing string
	// TouchTurns: a pat or poke starts a turn (off by default).
	TouchTurns bool
	// Thumb is thumbnail.png, nil when there is none (or it is unusable).
	Thumb []byte
	// Rev changes whenever the model or a clip changes (size and time),
	// so the page never draws a cached old model.
	Rev string
}

var clipPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// readVRM reads a VRM look folder's files (the model's header and JSON
// only, app/vrm) and resolves its mapping.
func readVRM(dir string, m manifest, rel func(string) string) (*VRM, error) {
	v := &VRM{Dir: dir, Breathing: BreathingOff, TouchTurns: m.TouchTurns}
	switch m.Breathing {
	case "", BreathingOff:
	case BreathingLow:
		v.Breathing = BreathingLow
	default:
		return nil, fmt.Errorf("%s: \"breathing\" must be %q or %q", rel(Manifest), BreathingLow, BreathingOff)
	}
	rev := sha256.New()
	fi, err := inspectFile(filepath.Join(dir, ModelFile), MaxModelBytes, func(r io.ReaderAt, size int64) error {
		i, err := vrm.Inspect(r, size)
		v.Info = i
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel(ModelFile), err)
	}
	fmt.Fprintf(rev, "%d %d;", fi.Size(), fi.ModTime().UnixNano())
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel(""), err)
	}
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ClipExt)
		if !ok || e.IsDir() {
			continue
		}
		if !clipPattern.MatchString(name) {
			return nil, fmt.Errorf("%s: a clip's name is 1–32 lower-case letters, digits or _, starting with a letter (it is the motion's id)", rel(e.Name()))
		}
		if len(v.Clips) == MaxClips {
			return nil, fmt.Errorf("%s: more than %d clips", rel(""), MaxClips)
		}
		cfi, err := inspectFile(filepath.Join(dir, e.Name()), MaxClipBytes, vrm.InspectAnimation)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rel(e.Name()), err)
		}
		fmt.Fprintf(rev, "%s %d %d;", name, cfi.Size(), cfi.ModTime().UnixNano())
		v.Clips = append(v.Clips, name)
	}
	sort.Strings(v.Clips)
	var file vrm.MappingFile
	if b, err := readBounded(filepath.Join(dir, MappingFile), vrm.MaxMappingBytes); err == nil {
		if file, err = vrm.ParseMapping(b); err != nil {
			return nil, fmt.Errorf("%s: %w", rel(MappingFile), err)
		}
	} else if err.Error() != "missing" {
		return nil, fmt.Errorf("%s: %w", rel(MappingFile), err)
	}
	if v.Mapping, err = vrm.Resolve(file, v.Info, v.Clips); err != nil {
		return nil, fmt.Errorf("%s: %w", rel(MappingFile), err)
	}
	if b, err := readBounded(filepath.Join(dir, ThumbnailFile), MaxThumbnailBytes); err == nil && checkPNG(b) == nil {
		v.Thumb = b
	}
	v.Rev = hex.EncodeToString(rev.Sum(nil)[:8])
	return v, nil
}

// inspectFile opens a regular file of at most limit bytes and runs check
// on it.
func inspectFile(path string, limit int64, check func(io.ReaderAt, int64) error) (fs.FileInfo, error) {
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
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return fi, check(f, fi.Size())
}

// checkPNG accepts a PNG of at most MaxThumbnailSide pixels a side.
func checkPNG(b []byte) error {
	c, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("not a PNG image: %v", err)
	}
	if c.Width > MaxThumbnailSide || c.Height > MaxThumbnailSide || c.Width < 1 || c.Height < 1 {
		return fmt.Errorf("a thumbnail is at most %d×%d pixels (it is %d×%d)", MaxThumbnailSide, MaxThumbnailSide, c.Width, c.Height)
	}
	if _, err := png.Decode(bytes.NewReader(b)); err != nil {
		return fmt.Errorf("not a PNG image: %v", err)
	}
	return nil
}

// ImportVRM validates a VRM model read from r (at most MaxModelBytes) and
// makes a look folder of it: looks/<id>/ with model.vrm and a look.json
// named after the model (or the file), id made from the file's name (a
// number added when taken). Nothing is left behind when it fails, and the
// error says what is wrong with the file. reserved are the built-in
// looks' ids.
func ImportVRM(configDir, fileName string, r io.Reader, reserved []string) (id, name string, err error) {
	root := filepath.Join(configDir, Dir)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return "", "", fmt.Errorf("make %s: %w", root, err)
	}
	tmp, err := os.MkdirTemp(root, ".import-")
	if err != nil {
		return "", "", fmt.Errorf("import: %w", err)
	}
	defer os.RemoveAll(tmp) // gone once renamed into place
	model := filepath.Join(tmp, ModelFile)
	f, err := os.OpenFile(model, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", "", fmt.Errorf("import: %w", err)
	}
	n, err := io.Copy(f, io.LimitReader(r, MaxModelBytes+1))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", fmt.Errorf("import: %w", err)
	}
	if n > MaxModelBytes {
		return "", "", fmt.Errorf("the file is too large (over %d MiB; a VRM look is at most %d MiB)", MaxModelBytes>>20, MaxModelBytes>>20)
	}
	mf, err := os.Open(model)
	if err != nil {
		return "", "", fmt.Errorf("import: %w", err)
	}
	info, err := vrm.Inspect(mf, n)
	mf.Close()
	if err != nil {
		return "", "", err
	}
	base := strings.TrimSuffix(filepath.Base(fileName), filepath.Ext(fileName))
	name = info.Name
	if name == "" {
		name = base
	}
	name = cutRunes(strings.TrimSpace(name), MaxNameRunes)
	if name == "" {
		name = "VRM model"
	}
	b, _ := json.MarshalIndent(manifest{Name: name, Breathing: BreathingOff}, "", "  ")
	if err := atomicfile.Write(filepath.Join(tmp, Manifest), append(b, '\n'), 0o600); err != nil {
		return "", "", fmt.Errorf("import: %w", err)
	}
	stem := slug(base)
	for i := 1; ; i++ {
		id = stem
		if i > 1 {
			suffix := fmt.Sprintf("-%d", i)
			id = stem[:min(len(stem), 32-len(suffix))] + suffix
		}
		if contains(reserved, id) {
			continue
		}
		err := os.Rename(tmp, filepath.Join(root, id))
		if err == nil {
			return id, name, nil
		}
		if _, serr := os.Lstat(filepath.Join(root, id)); serr != nil || i > 99 {
			return "", "", fmt.Errorf("import: %w", err)
		}
	}
}

// slug makes a folder name from a file name: lower-case letters, digits,
// - and _, at most 32, starting with a letter or digit ("model" if none).
func slug(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_':
			b.WriteRune(r)
			dash = false
		case b.Len() > 0 && !dash:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 32 {
			break
		}
	}
	out := strings.TrimRight(b.String(), "-")
	if len(out) > 32 {
		out = strings.TrimRight(out[:32], "-")
	}
	if out == "" || !idPattern.MatchString(out) {
		return "model"
	}
	return out
}

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// SetOptions writes a VRM look folder's options into its look.json,
// keeping its name.
func SetOptions(configDir, id, breathing string, touchTurns bool) error {
	if breathing != BreathingLow && breathing != BreathingOff {
		return fmt.Errorf("breathing must be %q or %q", BreathingLow, BreathingOff)
	}
	return rewriteManifest(configDir, id, func(m *manifest) {
		m.Breathing, m.TouchTurns = breathing, touchTurns
	})
}

// SetThumbnail stores a VRM look folder's thumbnail (a PNG of at most
// MaxThumbnailBytes and MaxThumbnailSide pixels a side).
func SetThumbnail(configDir, id string, b []byte) error {
	dir, err := vrmDir(configDir, id)
	if err != nil {
		return err
	}
	if len(b) > MaxThumbnailBytes {
		return fmt.Errorf("the thumbnail is too large (%d bytes; at most %d)", len(b), MaxThumbnailBytes)
	}
	if err := checkPNG(b); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, ThumbnailFile), b, 0o600)
}

func vrmDir(configDir, id string) (string, error) {
	if !idPattern.MatchString(id) {
		return "", fmt.Errorf("%q is not a look folder's name", id)
	}
	dir := filepath.Join(configDir, Dir, id)
	if fi, err := os.Lstat(filepath.Join(dir, ModelFile)); err != nil || !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a VRM look folder", Dir+"/"+id)
	}
	return dir, nil
}

func rewriteManifest(configDir, id string, change func(*manifest)) error {
	dir, err := vrmDir(configDir, id)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, Manifest)
	b, err := readBounded(path, MaxManifestBytes)
	if err != nil {
		return fmt.Errorf("%s: %w", Dir+"/"+id+"/"+Manifest, err)
	}
	// Keep keys this version does not know.
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return fmt.Errorf("%s: not valid JSON: %w", Dir+"/"+id+"/"+Manifest, err)
	}
	var m manifest
	json.Unmarshal(b, &m)
	change(&m)
	raw["breathing"] = m.Breathing
	raw["touch_turns"] = m.TouchTurns
	out, _ := json.MarshalIndent(raw, "", "  ")
	return atomicfile.Write(path, append(out, '\n'), 0o600)
}

// ModelPath is the path of a look folder's file to serve: model.vrm or
// one of its clips (<name>.vrma); any other name is refused.
func (v *VRM) ModelPath(file string) (string, bool) {
	if file == ModelFile {
		return filepath.Join(v.Dir, ModelFile), true
	}
	if name, ok := strings.CutSuffix(file, ClipExt); ok {
		for _, c := range v.Clips {
			if c == name {
				return filepath.Join(v.Dir, file), true
			}
		}
	}
	return "", false
}
