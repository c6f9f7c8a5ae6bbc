package phrase

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// tsEntries reads a locale file's 'key': 'value' lines.
func tsEntries(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^\s*'([^']+)':\s*(.+),\s*$`)
	out := map[string]string{}
	for _, l := range strings.Split(string(data), "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		v := m[2]
		switch {
		case strings.HasPrefix(v, `"`):
			if err := json.Unmarshal([]byte(v), &v); err != nil {
				t.Fatalf("%s: %s: %v", path, m[1], err)
			}
		case strings.HasPrefix(v, `'`) && strings.HasSuffix(v, `'`):
			v = strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(v[1 : len(v)-1])
		default:
			t.Fatalf("%s: %s: value %s is not a string literal", path, m[1], v)
		}
		out[m[1]] = v
	}
	return out
}

// The core's English is the English page's: every key the core sends is in
// frontend/src/locales/en.ts with the same text, and
// frontend/src/corephrases.ts lists exactly these keys.
func TestEnglishIsThePagesEnglish(t *testing.T) {
	front := filepath.Join("..", "..", "frontend", "src")
	en := tsEntries(t, filepath.Join(front, "locales", "en.ts"))
	for k, v := range english {
		if got, ok := en[k]; !ok {
			t.Errorf("en.ts lacks %q", k)
		} else if got != v {
			t.Errorf("%s: en.ts has %q, the core %q", k, got, v)
		}
	}
	for k := range en {
		if strings.HasPrefix(k, "core.") {
			if _, ok := english[k]; !ok {
				t.Errorf("en.ts has %q, which the core never sends", k)
			}
		}
	}
	data, err := os.ReadFile(filepath.Join(front, "corephrases.ts"))
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)CORE_KEYS[^=]*=\s*\[(.*?)\];`).FindSubmatch(data)
	if list == nil {
		t.Fatal("corephrases.ts: no CORE_KEYS list")
	}
	var listed, want []string
	for _, m := range regexp.MustCompile(`'([^']+)'`).FindAllSubmatch(list[1], -1) {
		listed = append(listed, string(m[1]))
	}
	for k := range english {
		want = append(want, k)
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("corephrases.ts CORE_KEYS = %v\nthe core's keys = %v", listed, want)
	}
}

func TestNewAndEnglish(t *testing.T) {
	p := New("core.plate.reconnecting_in", "n", "4")
	if got := p.English(); got != "reconnecting in 4 s" {
		t.Errorf("English = %q", got)
	}
	if (Phrase{}).English() != "" || (Phrase{}).Ptr() != nil {
		t.Error("the zero Phrase is no text")
	}
	if got := Fill("{a} and {b}", map[string]string{"a": "x"}); got != "x and {b}" {
		t.Errorf("Fill = %q", got)
	}
	for _, bad := range []func(){
		func() { New("core.nope") },
		func() { New("core.plate.reconnecting_in", oddPairs()...) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			bad()
		}()
	}
}

// oddPairs is a name without its value: New panics on it (a slice, so
// the vet-like check of a literal call does not refuse the test).
func oddPairs() []string { return []string{"n"} }
