package tray

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"yui/app/i18n"
)

// TestStringCatalogues: a strings file per supported language, each with
// exactly the keys of Strings, the {name} placeholder kept; and every
// field read by the tray's code.
func TestStringCatalogues(t *testing.T) {
	files, _ := fs.Glob(stringFiles, "strings_*.json")
	var langs, want []string
	for _, f := range files {
		langs = append(langs, strings.TrimSuffix(strings.TrimPrefix(f, "strings_"), ".json"))
	}
	for _, l := range i18n.Supported {
		want = append(want, string(l))
	}
	slices.Sort(langs)
	slices.Sort(want)
	if !slices.Equal(langs, want) {
		t.Fatalf("strings files for %v, supported %v", langs, want)
	}
	rt := reflect.TypeFor[Strings]()
	var keys []string
	for i := range rt.NumField() {
		keys = append(keys, rt.Field(i).Tag.Get("json"))
	}
	slices.Sort(keys)
	for _, f := range files {
		data, _ := stringFiles.ReadFile(f)
		if _, err := parseStrings(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		if got := slices.Sorted(maps.Keys(raw)); !slices.Equal(got, keys) {
			t.Errorf("%s keys %v, want %v", f, got, keys)
		}
	}
	for _, l := range i18n.Supported {
		if s := StringsFor(l); !strings.Contains(s.showHide("Mio"), "Mio") {
			t.Errorf("%s: show_hide lost {name}: %q", l, s.ShowHide)
		}
	}
	if StringsFor(i18n.Korean).Quit == StringsFor(i18n.English).Quit {
		t.Fatal("StringsFor(ko) is English")
	}
	// Every field is read in tray.go (t.str.Field or s.Field).
	src, err := os.ReadFile("tray.go")
	if err != nil {
		t.Fatal(err)
	}
	code := string(src) + readOr(t, "strings.go")
	for i := range rt.NumField() {
		name := rt.Field(i).Name
		if !strings.Contains(code, "str."+name) && !strings.Contains(code, "s."+name+")") && !strings.Contains(code, "s."+name+",") {
			t.Errorf("string %s is never read", name)
		}
	}
}

func readOr(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseStringsRefusesMissingAndUnknown(t *testing.T) {
	if _, err := parseStrings([]byte(`{"listen":"x"}`)); err == nil {
		t.Fatal("missing keys accepted")
	}
	data, _ := stringFiles.ReadFile("strings_en.json")
	extra := strings.Replace(string(data), "{", `{"nobody":"x",`, 1)
	if _, err := parseStrings([]byte(extra)); err == nil {
		t.Fatal("unknown key accepted")
	}
}
