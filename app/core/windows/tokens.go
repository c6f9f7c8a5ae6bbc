package windows

import "yui/app/view"

// Each window role has its own tokens, issued by the view server:
//
//   - the window's shell token goes to the window process in TokenEnv and
//     admits only that window's shell;
//   - its page token goes to the shell in window_config, over the
//     connection the shell token opened, and admits only that window's
//     page (the pet page of its preset, its message page, or the settings
//     page).
//
// So the settings page's token only ever reaches the settings window's
// process, and a pet page's token cannot connect as settings.

// ShellToken is the token of preset's window shell ("" preset: the
// settings window's).
func (w *Windows) ShellToken(preset string) string {
	return w.issue(view.Grant{Role: view.RoleShell, Preset: preset})
}

// PageToken is the token of preset's pet page, or of the settings page
// for preset "".
func (w *Windows) PageToken(preset string) string {
	if preset == "" {
		return w.issue(view.Grant{Role: view.RoleSettings})
	}
	return w.issue(view.Grant{Role: view.RolePet, Preset: preset})
}

// MessagePageToken is the token of preset's message page.
func (w *Windows) MessagePageToken(preset string) string {
	return w.issue(view.Grant{Role: view.RoleMessage, Preset: preset})
}

func (w *Windows) issue(g view.Grant) string {
	t, err := w.cfg.Server.Issue(g)
	if err != nil {
		// Only well-formed grants are asked for.
		panic(err)
	}
	return t
}

// PageTokens are the page tokens of the settings page ("settings"), of
// the pets of ids (by preset id) and of their message pages ("message:" +
// id), for the trace: a browser loading the pages from the core
// (--no-windows, the browser tests) needs them.
func (w *Windows) PageTokens(ids []string) map[string]string {
	out := map[string]string{view.RoleSettings: w.PageToken("")}
	for _, id := range ids {
		out[id] = w.PageToken(id)
		out[Message(id)] = w.MessagePageToken(id)
	}
	return out
}
