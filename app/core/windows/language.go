package windows

// LangEnv is the environment variable a window process reads the UI
// language from (an i18n tag: en, ja, ko, zh-Hans); its page speaks it
// (docs/languages.md).
const LangEnv = "YUI_LANG"

// env is a window process's environment: its shell token, and the UI
// language when the core knows one.
func (w *Windows) env(token string) []string {
	env := []string{TokenEnv + "=" + token}
	if w.cfg.Language != nil {
		if l := w.cfg.Language(); l != "" {
			env = append(env, LangEnv+"="+l)
		}
	}
	return env
}
