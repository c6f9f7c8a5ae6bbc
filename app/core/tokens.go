package core

import (
	"yui/app/view"
)

// Each window role has its own tokens, issued by the view server (see
// docs/security.md, "Tokens and roles"):
//
//   - the window's shell token goes to the window process in
//     YUI_CORE_TOKEN and admits only that window's shell;
//   - its page token goes to the shell in window_config, over the
//     connection the shell token opened, and admits only that window's
//     page (the pet page of its preset, or the settings page).
//
// So the settings page's token only ever reaches the settings window's
// process, and a pet page's token cannot connect as settings.

// tokenEnv is the environment variable a window process reads its shell
// token from (argv is readable by other local users).
const tokenEnv = "YUI_CORE_TOKEN"

// shellToken is the token of preset's window shell ("" preset: the settings
// window's).
func (c *Core) shellToken(preset string) string {
	return c.issue(view.Grant{Role: view.RoleShell, Preset: preset})
}

// pageToken is the token of preset's pet page, or of the settings page for
// preset "".
func (c *Core) pageToken(preset string) string {
	if preset == "" {
		return c.issue(view.Grant{Role: view.RoleSettings})
	}
	return c.issue(view.Grant{Role: view.RolePet, Preset: preset})
}

func (c *Core) issue(g view.Grant) string {
	t, err := c.view.Issue(g)
	if err != nil {
		// The core only asks for well-formed grants.
		panic(err)
	}
	return t
}

// revokeWindow ends preset's window grants (a preset removed or switched
// off): its shell and page are disconnected and their tokens admit nobody.
func (c *Core) revokeWindow(preset string) {
	c.view.Revoke(view.Grant{Role: view.RoleShell, Preset: preset})
	c.view.Revoke(view.Grant{Role: view.RolePet, Preset: preset})
	c.view.Revoke(view.Grant{Role: view.RoleMessageShell, Preset: preset})
	c.view.Revoke(view.Grant{Role: view.RoleMessage, Preset: preset})
}

// pageTokens are the page tokens of the settings page ("settings"), of
// every running pet (by preset id) and of its message page ("message:" +
// id), for the trace: a browser loading the
// pages from the core (--no-windows, the browser tests) needs them.
func (c *Core) pageTokens() map[string]string {
	out := map[string]string{view.RoleSettings: c.pageToken("")}
	for _, id := range c.petIDs() {
		out[id] = c.pageToken(id)
		out[messageWindowName(id)] = c.issue(view.Grant{Role: view.RoleMessage, Preset: id})
	}
	return out
}
