package i18n

import (
	"bytes"
	"encoding/json"
	"io/fs"
)

// CatalogueFile reads lang's catalogue from fsys: the file prefix+lang+".json",
// or English's (prefix+"en.json") for "" or a language without a file.
func CatalogueFile(fsys fs.FS, prefix string, lang Lang) ([]byte, error) {
	data, err := fs.ReadFile(fsys, prefix+string(lang)+".json")
	if err != nil {
		data, err = fs.ReadFile(fsys, prefix+string(English)+".json")
	}
	return data, err
}

// DecodeStrict reads a catalogue file's JSON into v, refusing a key v
// has no field for (a misspelt or stale key in a translation).
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
