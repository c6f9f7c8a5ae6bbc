package hotkey

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Modifiers of a combination.
type Modifiers uint8

// The modifier keys.
const (
	Ctrl Modifiers = 1 << iota
	Alt
	Shift
	Super
)

// Combo is a key combination: modifiers and one key.
type Combo struct {
	Mods Modifiers
	// Key is the key's canonical name: "A"–"Z", "0"–"9", "F1"–"F24",
	// "Space", "Enter", "Tab", "Escape", "Insert", "Delete", "Home",
	// "End", "PageUp", "PageDown", "Up", "Down", "Left", "Right",
	// "Pause".
	Key string
}

// Default is the shortcut a new settings file has.
const Default = "Ctrl+Alt+Y"

// ErrTaken: another app holds the combination.
var ErrTaken = errors.New("hotkey: another app already uses this shortcut")

// Grabber listens for one combination system-wide.
type Grabber interface {
	// Listen calls fn (on its own goroutine, one call at a time) each
	// time c is pressed, until ctx ends. It returns once the grab is in
	// place (nil) or failed (ErrTaken, or why the system has no global
	// shortcuts); the grab is released when ctx ends.
	Listen(ctx context.Context, c Combo, fn func()) error
}

var named = map[string]string{
	"space": "Space", "enter": "Enter", "return": "Enter", "tab": "Tab", "esc": "Escape", "escape": "Escape",
	"insert": "Insert", "ins": "Insert", "delete": "Delete", "del": "Delete", "home": "Home", "end": "End",
	"pageup": "PageUp", "pgup": "PageUp", "pagedown": "PageDown", "pgdn": "PageDown",
	"up": "Up", "down": "Down", "left": "Left", "right": "Right", "pause": "Pause",
}

// Parse reads a combination written as modifiers and a key joined by "+"
// ("Ctrl+Alt+Y", "super+shift+f2"; case does not matter; Control, Option,
// Win, Meta and Cmd are accepted aliases). It needs at least one of Ctrl,
// Alt or Super (a bare key or Shift+key would steal typing) and exactly one
// key.
func Parse(s string) (Combo, error) {
	var c Combo
	parts := strings.Split(strings.TrimSpace(s), "+")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		lp := strings.ToLower(p)
		last := i == len(parts)-1
		switch lp {
		case "ctrl", "control":
			c.Mods |= Ctrl
			continue
		case "alt", "option":
			c.Mods |= Alt
			continue
		case "shift":
			c.Mods |= Shift
			continue
		case "super", "win", "meta", "cmd":
			c.Mods |= Super
			continue
		}
		if p == "" && last {
			break // nothing after the last "+"
		}
		if !last {
			return Combo{}, fmt.Errorf("hotkey: %q: %q is not a modifier (Ctrl, Alt, Shift, Super) and only the last part is the key", s, p)
		}
		k, ok := keyName(p)
		if !ok {
			return Combo{}, fmt.Errorf("hotkey: %q: %q is not a key a shortcut can use (a letter, a digit, F1–F24, Space, arrows…)", s, p)
		}
		c.Key = k
	}
	if c.Key == "" {
		return Combo{}, fmt.Errorf("hotkey: %q: no key after the modifiers", s)
	}
	if c.Mods&(Ctrl|Alt|Super) == 0 {
		return Combo{}, fmt.Errorf("hotkey: %q: needs Ctrl, Alt or Super (a plain key would be taken from typing)", s)
	}
	return c, nil
}

func keyName(p string) (string, bool) {
	if len(p) == 1 {
		ch := p[0]
		switch {
		case ch >= 'a' && ch <= 'z':
			return string(ch - 'a' + 'A'), true
		case ch >= 'A' && ch <= 'Z', ch >= '0' && ch <= '9':
			return p, true
		}
		return "", false
	}
	lp := strings.ToLower(p)
	if lp == "" {
		return "", false
	}
	if n, ok := named[lp]; ok {
		return n, true
	}
	if lp[0] == 'f' {
		var n int
		if _, err := fmt.Sscanf(lp[1:], "%d", &n); err == nil && n >= 1 && n <= 24 && fmt.Sprint(n) == lp[1:] {
			return fmt.Sprintf("F%d", n), true
		}
	}
	return "", false
}

// String writes c the way Parse reads it: "Ctrl+Alt+Y".
func (c Combo) String() string {
	var b strings.Builder
	for _, m := range []struct {
		m Modifiers
		n string
	}{{Ctrl, "Ctrl"}, {Alt, "Alt"}, {Shift, "Shift"}, {Super, "Super"}} {
		if c.Mods&m.m != 0 {
			b.WriteString(m.n + "+")
		}
	}
	b.WriteString(c.Key)
	return b.String()
}
