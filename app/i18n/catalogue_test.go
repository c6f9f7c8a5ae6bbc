package i18n

import (
	"testing"
	"testing/fstest"
)

func TestCatalogueFile(t *testing.T) {
	fsys := fstest.MapFS{
		"lines_en.json": {Data: []byte("en")},
		"lines_ja.json": {Data: []byte("ja")},
	}
	for lang, want := range map[Lang]string{Japanese: "ja", English: "en", "": "en", Korean: "en"} {
		if got, err := CatalogueFile(fsys, "lines_", lang); err != nil || string(got) != want {
			t.Errorf("%q: %q, %v; want %q", lang, got, err, want)
		}
	}
	if _, err := CatalogueFile(fsys, "strings_", Japanese); err == nil {
		t.Error("no English file: no error")
	}
}
