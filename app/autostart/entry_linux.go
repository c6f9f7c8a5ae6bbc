package autostart

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"yui/app/atomicfile"
)

// FileName is the autostart entry's file name.
const FileName = "yui.desktop"

// New returns the entry that starts exe (an absolute path) with args at
// login, in configHome/autostart ("" means $XDG_CONFIG_HOME, else
// ~/.config).
func New(exe string, args []string, configHome string) (*Entry, error) {
	if configHome == "" {
		configHome = os.Getenv("XDG_CONFIG_HOME")
	}
	if configHome == "" || !filepath.IsAbs(configHome) {
		home, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("autostart: no config directory: %w", err)
		}
		configHome = filepath.Join(home, ".config")
	}
	if !filepath.IsAbs(exe) {
		return nil, fmt.Errorf("autostart: program path %q is not absolute", exe)
	}
	return &Entry{exe: exe, args: args, where: filepath.Join(configHome, "autostart", FileName)}, nil
}

// Enabled reports whether the entry exists and is not switched off.
func (e *Entry) Enabled() (bool, error) {
	b, err := os.ReadFile(e.where)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: read %s: %w", e.where, err)
	}
	keys := entryKeys(b)
	if strings.EqualFold(keys["Hidden"], "true") || strings.EqualFold(keys["X-GNOME-Autostart-enabled"], "false") {
		return false, nil
	}
	return true, nil
}

// Set writes the entry (on) or removes it (off). Writing replaces any
// entry there, one the user switched off included.
func (e *Entry) Set(on bool) error {
	if !on {
		if err := os.Remove(e.where); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("autostart: remove %s: %w", e.where, err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(e.where), 0o700); err != nil {
		return fmt.Errorf("autostart: %w", err)
	}
	if err := atomicfile.Write(e.where, e.desktopFile(), 0o644); err != nil {
		return fmt.Errorf("autostart: write %s: %w", e.where, err)
	}
	return nil
}

// GenericName is the desktop entries' GenericName: the menu entry's
// (build/linux/yui.desktop, checked by a test) and the autostart entry's
// say the same.
const GenericName = "Desktop Pet"

func (e *Entry) desktopFile() []byte {
	var b bytes.Buffer
	b.WriteString("[Desktop Entry]\n")
	b.WriteString("Type=Application\n")
	b.WriteString("Version=1.4\n")
	b.WriteString("Name=Yui\n")
	b.WriteString("GenericName=" + GenericName + "\n")
	b.WriteString("Comment=Start Yui, the desktop pet, when you log in\n")
	b.WriteString("Exec=" + ExecLine(append([]string{e.exe}, e.args...)) + "\n")
	b.WriteString("Icon=yui\n")
	b.WriteString("Terminal=false\n")
	b.WriteString("NoDisplay=true\n")
	b.WriteString("X-GNOME-Autostart-enabled=true\n")
	return b.Bytes()
}

// ExecLine quotes argv for a desktop entry's Exec key (Desktop Entry
// Specification, "The Exec key"): an argument with a space or a reserved
// character is put in double quotes with ", `, $ and \ escaped by a
// backslash; % is doubled; then the value is escaped as any string value
// (a backslash is written twice).
func ExecLine(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		a = strings.ReplaceAll(a, "%", "%%")
		if a != "" && !strings.ContainsAny(a, " \t\n\"'\\><~|&;$*?#()`=") {
			parts[i] = a
			continue
		}
		var q strings.Builder
		q.WriteByte('"')
		for _, r := range a {
			if strings.ContainsRune("\"`$\\", r) {
				q.WriteByte('\\')
			}
			q.WriteRune(r)
		}
		q.WriteByte('"')
		parts[i] = q.String()
	}
	line := strings.Join(parts, " ")
	// The string-value escapes: \\ for a backslash, \n etc. for control
	// characters.
	r := strings.NewReplacer("\\", "\\\\", "\n", "\\n", "\t", "\\t", "\r", "\\r")
	return r.Replace(line)
}

// entryKeys reads the [Desktop Entry] group's keys (no locale variants).
func entryKeys(b []byte) map[string]string {
	keys := map[string]string{}
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			in = line == "[Desktop Entry]"
		case in:
			k, v, ok := strings.Cut(line, "=")
			if ok {
				keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
	}
	return keys
}
