package core

import (
	"encoding/json"
	"fmt"
	"sync"

	"yui/app/view"
)

// Autostart is the OS's "start at login" record (app/autostart). The
// core keeps no copy of the choice: the tray and the pet menu show what
// Enabled reports.
type Autostart interface {
	Enabled() (bool, error)
	Set(on bool) error
}

// DesktopState is what the tray and the pet menu show.
type DesktopState struct {
	// Characters are the enabled presets, in the settings' order.
	Characters []CharacterState
	// VoicesMuted is the saved global mute (settings audio.muted).
	VoicesMuted bool
	// StartAtLogin is what the OS entry says; StartAtLoginAvailable is
	// false when the core has no Autostart.
	StartAtLogin          bool
	StartAtLoginAvailable bool
}

// CharacterState is one character's tray entry.
type CharacterState struct {
	ID, Name string
	// Shown is false while the user has hidden the character (her window
	// process is stopped; her session stays connected).
	Shown bool
}

// desktop is the core's desktop-level state: which characters the user
// hid, the quit request, and who hears about changes.
type desktop struct {
	mu       sync.Mutex
	hidden   map[string]bool
	onChange func(DesktopState)

	quit     chan struct{}
	quitOnce sync.Once
}

// OnDesktopChange registers fn, called with the new state after every
// change the tray shows (a character hidden or shown, mute, start at
// login, a settings save). fn runs on the goroutine that made the change
// and must not block. Call before Run.
func (c *Core) OnDesktopChange(fn func(DesktopState)) {
	c.desk.mu.Lock()
	c.desk.onChange = fn
	c.desk.mu.Unlock()
}

// DesktopState returns the current state. It reads the OS's autostart
// entry, so a change made outside Yui shows.
func (c *Core) DesktopState() DesktopState {
	all := c.store.Get()
	st := DesktopState{VoicesMuted: all.Audio.Muted, StartAtLoginAvailable: c.opts.Autostart != nil}
	if c.opts.Autostart != nil {
		on, err := c.opts.Autostart.Enabled()
		if err != nil {
			c.log.Warn("autostart_unreadable", "err", err.Error())
		}
		st.StartAtLogin = on
	}
	c.desk.mu.Lock()
	defer c.desk.mu.Unlock()
	for _, p := range all.Presets {
		if p.Enabled {
			st.Characters = append(st.Characters, CharacterState{ID: p.ID, Name: p.Name, Shown: !c.desk.hidden[p.ID]})
		}
	}
	return st
}

// hidden reports whether the user hid preset id's character.
func (c *Core) hidden(id string) bool {
	c.desk.mu.Lock()
	defer c.desk.mu.Unlock()
	return c.desk.hidden[id]
}

// RefreshDesktop re-reads what may change outside Yui (the autostart
// entry) and tells the tray and the pets, as after a change.
func (c *Core) RefreshDesktop() { c.desktopChanged() }

// desktopChanged tells the tray and every pet page the new state. A
// character switched off in the settings is no longer hidden: switched on
// again, she shows.
func (c *Core) desktopChanged() {
	all := c.store.Get()
	c.desk.mu.Lock()
	for id := range c.desk.hidden {
		if p, ok := all.Preset(id); !ok || !p.Enabled {
			delete(c.desk.hidden, id)
		}
	}
	c.desk.mu.Unlock()
	st := c.DesktopState()
	for _, ch := range st.Characters {
		c.publishDesktop(ch.ID, st)
	}
	c.desk.mu.Lock()
	fn := c.desk.onChange
	c.desk.mu.Unlock()
	if fn != nil {
		fn(st)
	}
}

// publishDesktop sets preset's pet page's desktop menu topic.
func (c *Core) publishDesktop(preset string, st DesktopState) {
	c.view.Publish(preset, view.TypeDesktop, view.MustEncode(view.TypeDesktop, view.Desktop{
		VoicesMuted: st.VoicesMuted, StartAtLogin: st.StartAtLogin, StartAtLoginAvailable: st.StartAtLoginAvailable}))
}

// SetShown shows or hides preset id's character. Hiding stops her window
// process (her session stays connected and keeps her history; the memory
// of the window is freed); showing is ShowPet. Hidden is not saved: the
// next start shows every enabled character. An id with no running pet is
// ignored.
func (c *Core) SetShown(id string, shown bool) {
	if c.pet(id) == nil {
		c.log.Warn("desktop_unknown_preset", "preset", id)
		return
	}
	if shown {
		if err := c.ShowPet(id); err != nil {
			c.log.Warn("window_show_failed", "preset", id, "err", err.Error())
		}
		return
	}
	c.desk.mu.Lock()
	was := !c.desk.hidden[id]
	c.desk.hidden[id] = true
	c.desk.mu.Unlock()
	if was {
		c.log.Info("pet_hidden", "preset", id)
		c.sup.StopOne("pet:" + id)
		// The shell quits when its connection ends, at once.
		c.view.Disconnect(view.RoleShell, id)
	}
	c.desktopChanged()
}

// OpenSettingsWindow opens the settings window on the main character.
func (c *Core) OpenSettingsWindow() {
	c.openSettings(c.store.Get().ActivePreset, "")
}

// SetStartAtLogin writes or removes the OS's autostart entry.
func (c *Core) SetStartAtLogin(on bool) error {
	if c.opts.Autostart == nil {
		return fmt.Errorf("core: start at login: not available")
	}
	err := c.opts.Autostart.Set(on)
	if err != nil {
		c.log.Error("autostart_failed", "on", on, "err", err.Error())
	} else {
		c.log.Info("autostart_set", "on", on)
	}
	c.desktopChanged()
	if err != nil {
		return fmt.Errorf("core: start at login: %w", err)
	}
	return nil
}

// Quit ends Run as its context ending does: every window closes, the
// settings and histories are written, Run returns nil. Safe to call more
// than once, from any goroutine.
func (c *Core) Quit() {
	c.desk.quitOnce.Do(func() {
		c.log.Info("quit_requested")
		close(c.desk.quit)
	})
}

// desktopAction handles a pet menu's app-wide item.
func (c *Core) desktopAction(peer view.Peer, m view.Message) {
	if peer.Role != view.RolePet {
		c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", "only a pet page has the desktop menu")
		return
	}
	var a view.DesktopAction
	if err := json.Unmarshal(m.Body, &a); err != nil {
		c.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
		return
	}
	c.log.Info("view_action", "type", m.Type, "action", a.Action, "preset", peer.Preset)
	switch a.Action {
	case view.DesktopHide:
		c.SetShown(peer.Preset, false)
	case view.DesktopMute, view.DesktopUnmute:
		if err := c.SetMuted(a.Action == view.DesktopMute); err != nil {
			c.view.Publish(peer.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "desktop_mute",
				Text: "Mute all voices could not be saved: " + err.Error()}))
		}
	case view.DesktopStartAtLoginOn, view.DesktopStartAtLoginOff:
		if err := c.SetStartAtLogin(a.Action == view.DesktopStartAtLoginOn); err != nil {
			c.view.Publish(peer.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "desktop_autostart",
				Text: "Start at login could not be changed: " + err.Error()}))
		}
	case view.DesktopResetPosition:
		c.ResetPosition(peer.Preset)
	case view.DesktopQuit:
		c.Quit()
	default:
		c.log.Warn("view_malformed", "type", m.Type, "action", a.Action)
	}
}
