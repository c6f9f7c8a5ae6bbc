package demobackend

import (
	"encoding/json"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"yui/app/i18n"
)

// Every supported language has a lines file with exactly English's keys,
// none blank, each with English's placeholders; every key is used by the
// code, and every key the code names exists.
func TestLineCatalogues(t *testing.T) {
	files, _ := fs.Glob(lineFiles, "lines_*.json")
	var langs, want []string
	for _, f := range files {
		langs = append(langs, strings.TrimSuffix(strings.TrimPrefix(f, "lines_"), ".json"))
	}
	for _, l := range i18n.Supported {
		want = append(want, string(l))
	}
	slices.Sort(langs)
	slices.Sort(want)
	if !slices.Equal(langs, want) {
		t.Fatalf("lines files for %v, supported languages %v", langs, want)
	}
	ph := regexp.MustCompile(`\{\w+\}`)
	en := catalogues()[i18n.English]
	keys := slices.Sorted(maps.Keys(en))
	for _, l := range i18n.Supported {
		w := catalogues()[l]
		if got := slices.Sorted(maps.Keys(w)); !slices.Equal(got, keys) {
			t.Errorf("lines_%s.json keys differ from English's", l)
		}
		for k, v := range w {
			if strings.TrimSpace(v) == "" {
				t.Errorf("lines_%s.json %s is blank", l, k)
			}
			a, b := ph.FindAllString(v, -1), ph.FindAllString(en[k], -1)
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("lines_%s.json %s has placeholders %v, English %v", l, k, a, b)
			}
			if l != i18n.English && v == en[k] && ph.ReplaceAllString(v, "") != "" {
				t.Errorf("lines_%s.json %s is English: %q", l, k, v)
			}
		}
	}
	var code strings.Builder
	srcs, _ := filepath.Glob("*.go")
	for _, f := range srcs {
		if !strings.HasSuffix(f, "_test.go") {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			code.Write(data)
		}
	}
	for _, k := range keys {
		if !strings.Contains(code.String(), `"`+k+`"`) {
			t.Errorf("key %s is used nowhere", k)
		}
	}
	for _, m := range regexp.MustCompile(`\bw\.s\("([^"]+)"`).FindAllStringSubmatch(code.String(), -1) {
		if _, ok := en[m[1]]; !ok {
			t.Errorf("the code names %s, which lines_en.json lacks", m[1])
		}
	}
	var raw map[string]string
	data, _ := lineFiles.ReadFile("lines_en.json")
	if err := json.Unmarshal(data, &raw); err != nil || len(raw) != len(en) {
		t.Fatalf("lines_en.json: %v", err)
	}
}

func TestDetect(t *testing.T) {
	for text, want := range map[string]i18n.Lang{
		"Hello there": i18n.English, "こんにちは": i18n.Japanese, "漢字とかな": i18n.Japanese, "カタカナ": i18n.Japanese,
		"안녕하세요": i18n.Korean, "你好，今天怎么样": i18n.SimplifiedChinese, "OK 你好": i18n.SimplifiedChinese,
		"元気？ありがとう": i18n.Japanese,
	} {
		if got, ok := detect(text); !ok || got != want {
			t.Errorf("detect(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for _, text := range []string{"", "123", "😀 !!"} {
		if _, ok := detect(text); ok {
			t.Errorf("detect(%q) found a language", text)
		}
	}
}
