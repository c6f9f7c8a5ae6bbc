package i18n

import "io/fs"

// CatalogueFile reads lang's catalogue from fsys: the file prefix+lang+".json",
// or English's (prefix+"en.json") for "" or a language without a file.
func CatalogueFile(fsys fs.FS, prefix string, lang Lang) ([]byte, error) {
	data, err := fs.ReadFile(fsys, prefix+string(lang)+".json")
	if err != nil {
		data, err = fs.ReadFile(fsys, prefix+string(English)+".json")
	}
	return data, err
}
