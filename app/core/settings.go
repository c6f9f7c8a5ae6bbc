package core

import (
	"slices"

	"yui/app/core/mindui"
	"yui/app/core/settingsui"
	apppet "yui/app/pet"
	"yui/app/settings"
)

// AvailableChatAPIs are the chat_api values this build can connect with
// (app/pet's wires); the others are accepted in the file but refused by
// the settings window.
var AvailableChatAPIs = apppet.Wires

// DefaultSettingsIdleExit is how long a hidden settings window keeps its
// process (settingsui.DefaultIdleExit).
const DefaultSettingsIdleExit = settingsui.DefaultIdleExit

// OpenSettingsWindow opens the settings window on the main character.
func (c *Core) OpenSettingsWindow() {
	c.sui.Open(c.store.Get().ActivePreset, "")
}

// settingsHost is what the settings window's room asks of the core.
type settingsHost struct{ c *Core }

// Save runs a save under applyMu: before is read inside the change, so a
// write that lands between (a prompt answered "Always") is in it and
// reconcile sees what this save really changed.
func (h settingsHost) Save(change func(*settings.Settings) error) (before, after settings.Settings, err error) {
	c := h.c
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	if c.stopping {
		return before, after, settingsui.ErrQuitting
	}
	err = c.store.Change(func(s *settings.Settings) error {
		before = *s
		before.Presets = slices.Clone(s.Presets)
		return change(s)
	})
	if err != nil {
		return before, after, err
	}
	after = c.store.Get()
	c.reconcile(before, after)
	if before.Audio != after.Audio {
		c.voices.Apply(after.Audio)
	}
	if before.Listen != after.Listen {
		c.ear.Saved()
	}
	if c.pets.Started() && before.Keyboard != after.Keyboard {
		c.desk.ApplyShortcut(true)
	}
	c.desk.Changed() // the tray lists the enabled characters
	c.companion.Apply()
	c.mind.Publish() // a character on another wire, one added or removed
	return before, after, nil
}

// mindHost is what the "What she remembers" section asks of the core.
type mindHost struct{ c *Core }

func (h mindHost) Memory(id string) mindui.Memory { return h.c.mem.Of(id) }

// SaveMCP saves her servers and answers through the settings window's
// save path: the core then makes her anew (settings.MCPChanged).
func (h mindHost) SaveMCP(id string, servers []settings.MCPServer, grants settings.MCPGrants) error {
	_, _, err := settingsHost(h).Save(func(s *settings.Settings) error { return s.SetMCP(id, servers, grants) })
	return err
}
