package core

import (
	"image"
	"path/filepath"

	"yui/app/atomicfile"
	"yui/app/core/desktop"
	"yui/app/core/settingsui"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

// The windows: each is the same binary with role flags (`yui window
// --role pet|settings|message`), run by the supervisor, its shell token
// in the environment. A pet window per enabled character, kept running;
// the settings window and a message window per character started on first
// use and hidden (not ended) when closed. The message window
// (docs/message-window.md) mirrors the pet page of its preset and shows
// her transcript (petview); it runs no socket of its own.

// settingsWindowName is the supervisor's name for the settings window.
const settingsWindowName = "settings"

// messageWindowName is the supervisor's name for preset id's message window.
func messageWindowName(id string) string { return "message:" + id }

// windowSpec is the process of a window of role (of preset; "" for the
// settings window) whose shell holds token. The token travels in the
// environment, not argv, which other local users can read. A once
// window that ends is started again on the next request, not by itself.
func (c *Core) windowSpec(name, role, preset, token string, once bool) supervisor.Spec {
	args := []string{"window", "--role", role}
	if preset != "" {
		args = append(args, "--preset", preset)
	}
	args = append(args, "--core", c.view.URL())
	if c.opts.LogDir != "" {
		args = append(args, "--log-dir", c.opts.LogDir)
	}
	return supervisor.Spec{Name: name, Path: c.opts.Exe, Args: args, Env: []string{tokenEnv + "=" + token}, Once: once}
}

func (c *Core) petSpec(p settings.Preset) supervisor.Spec {
	return c.windowSpec(desktop.PetWindow(p.ID), view.RolePet, p.ID, c.shellToken(p.ID), false)
}

func (c *Core) settingsSpec() supervisor.Spec {
	return c.windowSpec(settingsWindowName, view.RoleSettings, "", c.shellToken(""), true)
}

func (c *Core) messageSpec(p settings.Preset) supervisor.Spec {
	return c.windowSpec(messageWindowName(p.ID), view.RoleMessage, p.ID,
		c.issue(view.Grant{Role: view.RoleMessageShell, Preset: p.ID}), true)
}

// openWindow starts the window of spec on first use (it opens shown) or
// tells its running shell (role, preset) to show it. Without window
// processes (--no-windows: a browser loads the page) or before Run, it
// does nothing.
func (c *Core) openWindow(spec supervisor.Spec, role, preset string) {
	if c.opts.NoWindows {
		return
	}
	c.petsMu.Lock()
	started := c.started
	c.petsMu.Unlock()
	if !started {
		return
	}
	if c.sup.Run(spec) {
		return // starting: it opens shown
	}
	c.view.Send(role, preset, view.MustEncode(view.TypeWindowShow, struct{}{}))
}

// openMessages shows preset id's message window.
func (c *Core) openMessages(id string) {
	p, ok := c.presetNow(id)
	if !ok || c.pet(id) == nil {
		c.log.Warn("view_unknown_preset", "preset", id, "type", view.TypeOpenMessages)
		return
	}
	c.log.Info("messages_open", "preset", id)
	c.openWindow(c.messageSpec(p), view.RoleMessageShell, id)
}

// onConnect greets a shell with its window configuration, and a message
// page with the transcript.
func (c *Core) onConnect(peer view.Peer) {
	var cfg view.WindowConfig
	switch {
	case peer.Role == view.RoleMessage:
		if pt := c.pet(peer.Preset); pt != nil {
			pt.view.SendTranscript()
		}
		return
	case peer.Role == view.RoleShell && peer.Preset == "":
		cfg = settingsui.WindowConfig()
		cfg.PageToken = c.pageToken("")
		if at, ok := c.desk.SettingsPosition(image.Pt(settingsui.Width, settingsui.Height)); ok {
			cfg.X, cfg.Y = &at.X, &at.Y
		}
	case peer.Role == view.RoleShell, peer.Role == view.RoleMessageShell:
		p, ok := c.presetNow(peer.Preset)
		if !ok {
			c.log.Warn("view_unknown_preset", "preset", peer.Preset)
			return
		}
		if peer.Role == view.RoleMessageShell {
			cfg = c.messageWindowConfig(p)
			break
		}
		cfg = view.WindowConfig{Kind: view.WindowPet, Title: petTitle(p.Name), Width: desktop.PetWidth, Height: desktop.PetHeight, PageToken: c.pageToken(p.ID)}
		if at, ok := c.desk.PetPosition(p.ID); ok {
			cfg.X, cfg.Y = &at.X, &at.Y
		}
	default:
		return
	}
	c.view.Send(peer.Role, peer.Preset, view.MustEncode(view.TypeWindowConfig, cfg))
}

// messageWindowConfig is the message shell's window_config. Its title
// starts like every Yui window's, so perch targets and the frontmost line
// leave it out.
func (c *Core) messageWindowConfig(p settings.Preset) view.WindowConfig {
	return view.WindowConfig{Kind: view.WindowMessage, Title: messageTitle(p.Name), Width: view.MessageWidth, Height: view.MessageHeight,
		MinWidth: view.MessageMinWidth, MinHeight: view.MessageMinHeight,
		PageToken: c.issue(view.Grant{Role: view.RoleMessage, Preset: p.ID})}
}

// petTitle is a pet window's title: it starts like every Yui window's
// (look.OwnTitlePrefix), so perch targets and the frontmost line leave it
// out.
func petTitle(name string) string { return "Yui — " + name }

func messageTitle(name string) string { return "Yui — " + name + " — Messages" }

// transcriptPath is preset id's transcript file ("" without a config
// directory: kept in memory).
func transcriptPath(configDir, id string) string {
	if configDir == "" {
		return ""
	}
	return filepath.Join(configDir, "transcript-"+atomicfile.SafeName(id)+".json")
}
