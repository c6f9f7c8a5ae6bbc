package tray

import (
	"embed"
	"fmt"
	"reflect"
	"strings"

	"yui/app/i18n"
)

// Strings are the menu's item labels and tooltips in one language, from
// strings_<tag>.json. ShowHide is the tooltip of a character's item; {name}
// is her name.
type Strings struct {
	Listen      string `json:"listen"`
	ListenTip   string `json:"listen_tip"`
	Mute        string `json:"mute"`
	MuteTip     string `json:"mute_tip"`
	Quiet       string `json:"quiet"`
	QuietTip    string `json:"quiet_tip"`
	Settings    string `json:"settings"`
	SettingsTip string `json:"settings_tip"`
	Reset       string `json:"reset"`
	ResetTip    string `json:"reset_tip"`
	Login       string `json:"login"`
	LoginTip    string `json:"login_tip"`
	Quit        string `json:"quit"`
	QuitTip     string `json:"quit_tip"`
	ShowHide    string `json:"show_hide"`
}

//go:embed strings_*.json
var stringFiles embed.FS

// StringsFor is the menu in a supported language; English for "" or a
// language without a file.
func StringsFor(lang i18n.Lang) Strings {
	data, err := i18n.CatalogueFile(stringFiles, "strings_", lang)
	if err != nil {
		panic(err) // the embedded files are part of the build; a test covers them
	}
	s, err := parseStrings(data)
	if err != nil {
		panic(fmt.Errorf("strings_%s.json: %w", lang, err)) // a test covers every file
	}
	return s
}

// parseStrings reads a strings file: every key present and non-blank, no
// unknown key.
func parseStrings(data []byte) (Strings, error) {
	var s Strings
	if err := i18n.DecodeStrict(data, &s); err != nil {
		return Strings{}, fmt.Errorf("tray: parse strings: %w", err)
	}
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		if strings.TrimSpace(v.Field(i).String()) == "" {
			return Strings{}, fmt.Errorf("tray: parse strings: %q is missing", v.Type().Field(i).Tag.Get("json"))
		}
	}
	return s, nil
}

// showHide is the tooltip of a character's item.
func (s Strings) showHide(name string) string { return strings.ReplaceAll(s.ShowHide, "{name}", name) }
