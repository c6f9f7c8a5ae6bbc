package core

import (
	"path/filepath"

	"yui/app/atomicfile"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

// The message window (docs/message-window.md): one per character, the same
// binary with role flags like the settings window, started on the first
// open_messages and hidden (not ended) when closed. Its page mirrors the
// pet page of its preset (app/view: every pet topic reaches it too) and
// shows the character's transcript, which the pet records here from its
// session's events. It runs no socket of its own: what it sends goes
// through the pet's session.

// messageWindowName is the supervisor's name for preset id's message window.
func messageWindowName(id string) string { return "message:" + id }

// transcriptPath is preset id's transcript file ("" without a config
// directory: kept in memory).
func transcriptPath(configDir, id string) string {
	if configDir == "" {
		return ""
	}
	return filepath.Join(configDir, "transcript-"+atomicfile.SafeName(id)+".json")
}

// openMessages shows preset id's message window: the process starts on
// first use; later opens show the hidden window. Without window processes
// (--no-windows) a browser loads the page instead.
func (c *Core) openMessages(id string) {
	p, ok := c.presetNow(id)
	if !ok || c.pet(id) == nil {
		c.log.Warn("view_unknown_preset", "preset", id, "type", view.TypeOpenMessages)
		return
	}
	c.log.Info("messages_open", "preset", id)
	if c.opts.NoWindows {
		return
	}
	c.petsMu.Lock()
	started := c.started
	c.petsMu.Unlock()
	if !started {
		return
	}
	if c.sup.Run(c.messageSpec(p)) {
		return // starting: it opens shown
	}
	c.view.Send(view.RoleMessageShell, id, view.MustEncode(view.TypeWindowShow, struct{}{}))
}

func (c *Core) messageSpec(p settings.Preset) supervisor.Spec {
	args := []string{"window", "--role", view.RoleMessage, "--preset", p.ID, "--core", c.view.URL()}
	if c.opts.LogDir != "" {
		args = append(args, "--log-dir", c.opts.LogDir)
	}
	return supervisor.Spec{
		Name: messageWindowName(p.ID),
		Path: c.opts.Exe,
		Args: args,
		Env:  []string{tokenEnv + "=" + c.issue(view.Grant{Role: view.RoleMessageShell, Preset: p.ID})},
		// Closing hides it; a process that ends anyway opens again on the
		// next request rather than by itself.
		Once: true,
	}
}

// messageWindowConfig is the message shell's window_config. Its title
// starts like every Yui window's, so perch targets and the frontmost line
// leave it out.
func (c *Core) messageWindowConfig(p settings.Preset) view.WindowConfig {
	return view.WindowConfig{Kind: view.WindowMessage, Title: messageTitle(p.Name), Width: view.MessageWidth, Height: view.MessageHeight,
		MinWidth: view.MessageMinWidth, MinHeight: view.MessageMinHeight,
		PageToken: c.issue(view.Grant{Role: view.RoleMessage, Preset: p.ID})}
}

func messageTitle(name string) string { return "Yui — " + name + " — Messages" }

// resetConversation is New conversation, from the pet menu, the settings
// window or the message window: the session stops and resets, and the
// transcript is emptied (what is shown and what a request transport
// sends).
func (c *Core) resetConversation(pt *pet) {
	pt.sess.Reset()
	pt.view.ClearTranscript()
}
