package session

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"yui/app/i18n"
)

// TestLineCatalogues: every supported language has a lines file, no file
// is for a language Yui does not list, every file has exactly the keys of
// the Lines struct (ParseLines refuses a missing or unknown one), and the
// {tool} placeholder survives translation.
func TestLineCatalogues(t *testing.T) {
	files, err := fs.Glob(lineFiles, "lines_*.json")
	if err != nil {
		t.Fatal(err)
	}
	var langs []string
	for _, f := range files {
		langs = append(langs, strings.TrimSuffix(strings.TrimPrefix(f, "lines_"), ".json"))
	}
	var want []string
	for _, l := range i18n.Supported {
		want = append(want, string(l))
	}
	slices.Sort(langs)
	slices.Sort(want)
	if !slices.Equal(langs, want) {
		t.Fatalf("lines files for %v, supported languages %v", langs, want)
	}
	keys := jsonKeys(reflect.TypeFor[Lines]())
	for _, f := range files {
		data, _ := lineFiles.ReadFile(f)
		if _, err := ParseLines(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if got := slices.Sorted(maps.Keys(raw)); !slices.Equal(got, keys) {
			t.Errorf("%s keys %v, want %v", f, got, keys)
		}
		l := LinesFor(i18n.Lang(strings.TrimSuffix(strings.TrimPrefix(f, "lines_"), ".json")))
		if !strings.Contains(l.ToolPhrase, "{tool}") {
			t.Errorf("%s: tool_phrase lost {tool}: %q", f, l.ToolPhrase)
		}
	}
	if LinesFor(i18n.Japanese).Failed == LinesFor(i18n.English).Failed {
		t.Fatal("LinesFor(ja) returned the English lines")
	}
	if LinesFor("").Failed != EnglishLines().Failed {
		t.Fatal(`LinesFor("") is not English`)
	}
}

// TestLineKeysUsed: every line the catalogues hold is read by the
// package's code (a key nobody reads is a dead translation).
func TestLineKeysUsed(t *testing.T) {
	used := map[string]bool{}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				used[sel.Sel.Name] = true
			}
			return true
		})
	}
	rt := reflect.TypeFor[Lines]()
	for i := range rt.NumField() {
		if name := rt.Field(i).Name; !used[name] {
			t.Errorf("line %s (%s) is never read", name, rt.Field(i).Tag.Get("json"))
		}
	}
}

func jsonKeys(rt reflect.Type) []string {
	var keys []string
	for i := range rt.NumField() {
		keys = append(keys, strings.Split(rt.Field(i).Tag.Get("json"), ",")[0])
	}
	slices.Sort(keys)
	return keys
}
