package shell

import "yui/app/i18n"

// LangEnv names the variable the core hands a window process the UI
// language in (app/core/windows.LangEnv).
const LangEnv = "YUI_LANG"

// pageLang is the UI language for the page: LangEnv when it is a supported
// language, else "" (the page follows the webview's locale).
func pageLang(getenv func(string) string) string {
	l, err := i18n.Parse(getenv(LangEnv))
	if err != nil {
		return ""
	}
	return string(l)
}
