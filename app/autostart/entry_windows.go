package autostart

import (
	"errors"
	"fmt"
	"strings"
	"syscall"

	"golang.org/x/sys/windows/registry"
)

const (
	runKey      = `Software\Microsoft\Windows\CurrentVersion\Run`
	approvedKey = `Software\Microsoft\Windows\CurrentVersion\Explorer\StartupApproved\Run`
	// ValueName is the Run value Yui writes.
	ValueName = "Yui"
)

// New returns the entry that starts exe with args at login: the per-user
// Run value "Yui" (configHome is not used on Windows).
func New(exe string, args []string, configHome string) (*Entry, error) {
	if exe == "" {
		return nil, errors.New("autostart: no program path")
	}
	return &Entry{exe: exe, args: args, where: `HKCU\` + runKey + `\` + ValueName}, nil
}

// Enabled reports whether the Run value exists and the user has not
// disabled it in Task Manager (StartupApproved\Run: an odd first byte
// means disabled).
func (e *Entry) Enabled() (bool, error) {
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if errors.Is(err, registry.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("autostart: open Run key: %w", err)
	}
	defer k.Close()
	if _, _, err := k.GetStringValue(ValueName); err != nil {
		if errors.Is(err, registry.ErrNotExist) {
			return false, nil
		}
		return false, fmt.Errorf("autostart: read Run value: %w", err)
	}
	a, err := registry.OpenKey(registry.CURRENT_USER, approvedKey, registry.QUERY_VALUE)
	if err != nil {
		return true, nil // no approval record: enabled
	}
	defer a.Close()
	b, _, err := a.GetBinaryValue(ValueName)
	if err != nil || len(b) == 0 {
		return true, nil
	}
	return b[0]&1 == 0, nil
}

// Set writes (on) or deletes (off) the Run value; either way a Task
// Manager "disabled" mark is cleared, so the choice made here is the one
// that holds.
func (e *Entry) Set(on bool) error {
	if a, err := registry.OpenKey(registry.CURRENT_USER, approvedKey, registry.SET_VALUE); err == nil {
		if err := a.DeleteValue(ValueName); err != nil && !errors.Is(err, registry.ErrNotExist) {
			a.Close()
			return fmt.Errorf("autostart: clear StartupApproved: %w", err)
		}
		a.Close()
	}
	if !on {
		k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
		if errors.Is(err, registry.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("autostart: open Run key: %w", err)
		}
		defer k.Close()
		if err := k.DeleteValue(ValueName); err != nil && !errors.Is(err, registry.ErrNotExist) {
			return fmt.Errorf("autostart: delete Run value: %w", err)
		}
		return nil
	}
	k, _, err := registry.CreateKey(registry.CURRENT_USER, runKey, registry.SET_VALUE)
	if err != nil {
		return fmt.Errorf("autostart: open Run key: %w", err)
	}
	defer k.Close()
	if err := k.SetStringValue(ValueName, commandLine(append([]string{e.exe}, e.args...))); err != nil {
		return fmt.Errorf("autostart: write Run value: %w", err)
	}
	return nil
}

// commandLine joins argv as CreateProcess parses it
// (syscall.EscapeArg quotes paths with spaces).
func commandLine(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = syscall.EscapeArg(a)
	}
	return strings.Join(parts, " ")
}
