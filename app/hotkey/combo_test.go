package hotkey

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]string{
		"Ctrl+Alt+Y":         "Ctrl+Alt+Y",
		"ctrl+alt+y":         "Ctrl+Alt+Y",
		" Control + Alt + y": "Ctrl+Alt+Y",
		"alt+ctrl+Y":         "Ctrl+Alt+Y",
		"Super+Shift+F2":     "Shift+Super+F2",
		"win+space":          "Super+Space",
		"Ctrl+Alt+PgDn":      "Ctrl+Alt+PageDown",
		"Ctrl+9":             "Ctrl+9",
		"Ctrl+F24":           "Ctrl+F24",
	} {
		c, err := Parse(in)
		if err != nil || c.String() != want {
			t.Errorf("Parse(%q) = %v, %v; want %s", in, c, err, want)
		}
		if again, err := Parse(c.String()); err != nil || again != c {
			t.Errorf("Parse(String()) of %q = %v, %v", in, again, err)
		}
	}
	for in, want := range map[string]string{
		"":            "no key",
		"Y":           "needs Ctrl, Alt or Super",
		"Shift+Y":     "needs Ctrl, Alt or Super",
		"Ctrl+Alt":    "no key",
		"Ctrl+Y+Alt":  "not a modifier",
		"Ctrl+Hyper":  "not a key",
		"Ctrl+F25":    "not a key",
		"Ctrl+F01":    "not a key",
		"Ctrl+é":      "not a key",
		"Ctrl+Alt+YY": "not a key",
	} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) err = %v, want one saying %q", in, err, want)
		}
	}
}
