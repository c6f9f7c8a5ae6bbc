package core

import (
	"image"
	"sync"
	"time"

	"yui/app/delegation"
	"yui/app/lookfolder"
	apppet "yui/app/pet"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

// Settings window size in CSS pixels, and the smallest the form lays out
// in.
const (
	SettingsWidth     = 760
	SettingsHeight    = 560
	SettingsMinWidth  = 600
	SettingsMinHeight = 440
)

// settingsWindowName is the supervisor's name for the settings window.
const settingsWindowName = "settings"

// settingsWindow is the one settings window: started the first time the
// user opens settings, hidden (not ended) when closed, shown again on the
// next open.
type settingsWindow struct {
	mu sync.Mutex
	// idle ends the hidden window's process (SettingsIdleExit); nil while
	// shown or not running. idleGen tells a stale timer from the current.
	idle     *time.Timer
	idleGen  uint64
	focusSeq uint64
	revision uint64
	status   map[string]view.PresetStatus
	// history is each preset's delegation history as its session last
	// reported it, or as read from disk for a preset with no session.
	history map[string][]view.DelegationItem
	// notes are what the form says about presets moved to another
	// backend (keybind.go).
	notes map[string]backendNote
	// shown: the window is open (its shell connected, not hidden since);
	// at is where the core opened it (nil: the window manager chose).
	// A new character keeps clear of it (placement.go, settingsRects).
	shown bool
	at    *image.Point
}

// openSettings shows the settings window on preset id at section. The
// window process starts on first use (under a second to first paint); later
// opens show the hidden window at once. Without window processes
// (--no-windows) only the focus is published, for a page a browser loaded.
func (c *Core) openSettings(id, section string) {
	switch section {
	case "", view.SectionCharacter, view.SectionBackend, view.SectionVoice, view.SectionPermissions, view.SectionSession, view.SectionListen:
	default:
		c.log.Warn("view_malformed", "type", view.TypeOpenSettings, "section", section)
		section = ""
	}
	c.settingsWin.mu.Lock()
	c.stopSettingsIdleLocked()
	c.settingsWin.focusSeq++
	f := view.SettingsFocus{Seq: c.settingsWin.focusSeq, Preset: id, Section: section}
	c.settingsWin.mu.Unlock()
	c.view.PublishSettings(view.TypeSettingsFocus, view.MustEncode(view.TypeSettingsFocus, f))
	c.log.Info("settings_open", "preset", id, "section", section)
	// The devices may have changed (headphones plugged in) since the last
	// look.
	c.publishSettingsAudio()
	c.publishSettingsListen()
	if c.opts.NoWindows {
		return
	}
	c.petsMu.Lock()
	started := c.started
	c.petsMu.Unlock()
	if !started {
		return
	}
	if c.sup.Run(c.settingsSpec()) {
		return // starting: it opens shown
	}
	c.settingsWin.mu.Lock()
	c.settingsWin.shown = true
	c.settingsWin.mu.Unlock()
	c.view.Send(view.RoleShell, "", view.MustEncode(view.TypeWindowShow, struct{}{}))
}

// DefaultSettingsIdleExit is how long a hidden settings window keeps its
// process: long enough that closing and reopening at once shows the same
// window, short enough that the ≈ 420 MB of a WebKit process go back soon
// after the user is done. A new process paints its form in about a second
// (docs/windows.md).
const DefaultSettingsIdleExit = 2 * time.Minute

// settingsHidden is the settings shell's report that the user closed (hid)
// the window: after SettingsIdleExit hidden its process ends; the next
// open starts a new one.
func (c *Core) settingsHidden() {
	wait := c.opts.SettingsIdleExit
	if wait == 0 {
		wait = DefaultSettingsIdleExit
	}
	if wait < 0 {
		return
	}
	c.settingsWin.mu.Lock()
	defer c.settingsWin.mu.Unlock()
	c.settingsWin.shown = false
	c.stopSettingsIdleLocked()
	gen := c.settingsWin.idleGen
	c.settingsWin.idle = time.AfterFunc(wait, func() {
		c.settingsWin.mu.Lock()
		if c.settingsWin.idleGen != gen {
			c.settingsWin.mu.Unlock()
			return // shown again meanwhile
		}
		c.settingsWin.idle = nil
		c.settingsWin.mu.Unlock()
		c.log.Info("settings_idle_exit", "hidden_for_ms", wait.Milliseconds())
		// The shell quits on window_quit; StopOne ends it anyway (after
		// ExitGrace) should it not, and a Run meanwhile starts a new one.
		c.view.Send(view.RoleShell, "", view.MustEncode(view.TypeWindowQuit, struct{}{}))
		c.sup.StopOne(settingsWindowName)
	})
}

// stopSettingsIdleLocked disarms the idle exit. Call with settingsWin.mu.
func (c *Core) stopSettingsIdleLocked() {
	c.settingsWin.idleGen++
	if c.settingsWin.idle != nil {
		c.settingsWin.idle.Stop()
		c.settingsWin.idle = nil
	}
}

func (c *Core) settingsSpec() supervisor.Spec {
	args := []string{"window", "--role", view.RoleSettings, "--core", c.view.URL()}
	if c.opts.LogDir != "" {
		args = append(args, "--log-dir", c.opts.LogDir)
	}
	return supervisor.Spec{
		Name: settingsWindowName,
		Path: c.opts.Exe,
		Args: args,
		Env:  []string{tokenEnv + "=" + c.shellToken("")},
		// Closing hides the window; if the process ends anyway (a crash,
		// the window manager killing it) it opens again on the next
		// request rather than popping up by itself.
		Once: true,
	}
}

// settingsTitle is the settings window's title.
const settingsTitle = "Yui — Settings"

// settingsWindowConfig is the settings shell's window_config. Its title
// starts with look.OwnTitlePrefix like the pet windows', so perch targets
// and the frontmost line leave it out.
func settingsWindowConfig() view.WindowConfig {
	return view.WindowConfig{Kind: view.WindowSettings, Title: settingsTitle, Width: SettingsWidth, Height: SettingsHeight,
		MinWidth: SettingsMinWidth, MinHeight: SettingsMinHeight}
}

// publishSettingsState sends the saved settings to the settings page. The
// key never leaves the core: the form learns only whether one is set.
func (c *Core) publishSettingsState() {
	all := c.store.Get()
	c.settingsWin.mu.Lock()
	c.settingsWin.revision++
	st := view.SettingsState{Revision: c.settingsWin.revision, Path: c.store.Path(), ActivePreset: all.ActivePreset,
		Presets: make([]view.PresetForm, len(all.Presets)), Choices: settingsChoices(c.folderLooks()),
		Audio:     view.AudioForm{Muted: all.Audio.Muted, Device: all.Audio.Device},
		Keyboard:  view.KeyboardForm{Shortcut: all.Keyboard.ShortcutOrDefault(), ShortcutOff: all.Keyboard.ShortcutOff, Note: c.shortcutNote()},
		NewPreset: newPresetForm(all)}
	for i, p := range all.Presets {
		st.Presets[i] = presetForm(p)
		if n, ok := c.settingsWin.notes[p.ID]; ok {
			n.apply(&st.Presets[i])
		}
	}
	c.settingsWin.mu.Unlock()
	c.voiceChoices(&st.Choices)
	c.view.PublishSettings(view.TypeSettingsState, view.MustEncode(view.TypeSettingsState, st))
}

func presetForm(p settings.Preset) view.PresetForm {
	return view.PresetForm{PresetFields: view.PresetFields{ID: p.ID, Name: p.Name, Enabled: p.Enabled, Look: p.Look,
		ChatAPI: p.ChatAPI, ChatBaseURL: p.ChatBaseURL, Model: p.Model, ReasoningEffort: p.ReasoningEffort,
		Card: p.Card, ContextWindow: p.ContextWindow, AgentID: p.AgentID, ThreadID: p.ThreadID,
		Permissions: view.PermissionsForm{Screen: p.Permissions.Screen, ScreenshotEachTurn: p.Permissions.ScreenshotEachTurn,
			HideFrontmost: p.Permissions.HideFrontmost},
		Voice: new(voiceForm(p.Voice))},
		HasKey: p.Key != "", HasVoiceKey: p.Voice.Key != "", ChatID: p.ChatID}
}

// AvailableChatAPIs are the chat_api values this build can connect with
// (app/pet's wires); the others are accepted in the file but refused by
// the settings window.
var AvailableChatAPIs = apppet.Wires

var chatAPILabels = map[string]string{
	"push":             "Push (WebSocket)",
	"responses":        "OpenAI Responses",
	"chat_completions": "OpenAI Chat Completions",
	"standard_agents":  "Standard Agents threads",
}

// chatAPILabel is how the windows name a chat_api value.
func chatAPILabel(id string) string {
	if l := chatAPILabels[id]; l != "" {
		return l
	}
	return id
}

func settingsChoices(looks []lookfolder.Look) view.SettingsChoices {
	var ch view.SettingsChoices
	for _, id := range settings.ChatAPIs {
		c := view.Choice{ID: id, Label: chatAPILabel(id), Available: false, Note: "not in this version yet"}
		for _, a := range AvailableChatAPIs {
			if a == id {
				c.Available, c.Note = true, ""
			}
		}
		ch.ChatAPIs = append(ch.ChatAPIs, c)
	}
	effortLabels := map[string]string{"": "Model default", "minimal": "Minimal", "low": "Low", "medium": "Medium", "high": "High"}
	for _, id := range settings.ReasoningEfforts {
		ch.ReasoningEfforts = append(ch.ReasoningEfforts, view.Choice{ID: id, Label: effortLabels[id], Available: true})
	}
	screenLabels := map[string]string{
		"ask":   "Ask each time",
		"allow": "Allow",
		"deny":  "Never",
	}
	screenNotes := map[string]string{
		"ask":   "You are asked each time the backend wants to see your screen",
		"allow": "The backend may look at your screen whenever it asks",
		"deny":  "The backend is told no without asking you",
	}
	for _, id := range settings.ScreenModes {
		ch.ScreenModes = append(ch.ScreenModes, view.Choice{ID: id, Label: screenLabels[id], Available: true, Note: screenNotes[id]})
	}
	ch.Looks = lookChoices(looks)
	ch.VRMLooks = vrmLookChoices(looks)
	return ch
}

// setStatus records preset id's connection for the settings window's list
// (nil: the preset has no running pet) and publishes the list. Pets call
// it with their own mutex held, so it takes no pet's lock.
func (c *Core) setStatus(id string, st *view.PresetStatus) {
	c.settingsWin.mu.Lock()
	defer c.settingsWin.mu.Unlock()
	if c.settingsWin.status == nil {
		c.settingsWin.status = map[string]view.PresetStatus{}
	}
	if st == nil {
		delete(c.settingsWin.status, id)
	} else {
		c.settingsWin.status[id] = *st
	}
	list := view.SettingsStatus{Presets: []view.PresetStatus{}}
	for _, p := range c.store.Get().Presets {
		if s, ok := c.settingsWin.status[p.ID]; ok {
			list.Presets = append(list.Presets, s)
		}
	}
	// Published under the lock so two pets' updates cannot arrive out of
	// order.
	c.view.PublishSettings(view.TypeSettingsStatus, view.MustEncode(view.TypeSettingsStatus, list))
}

// setHistory records preset id's delegation history (its session's latest)
// and publishes every preset's. Pets call it with their own mutex held.
func (c *Core) setHistory(id string, items []view.DelegationItem) {
	c.settingsWin.mu.Lock()
	defer c.settingsWin.mu.Unlock()
	if c.settingsWin.history == nil {
		c.settingsWin.history = map[string][]view.DelegationItem{}
	}
	c.settingsWin.history[id] = items
	c.publishHistoryLocked()
}

// publishHistory publishes every preset's history, reading from disk the
// histories of switched-off presets no session has reported.
func (c *Core) publishHistory() {
	c.settingsWin.mu.Lock()
	defer c.settingsWin.mu.Unlock()
	c.publishHistoryLocked()
}

func (c *Core) publishHistoryLocked() {
	if c.settingsWin.history == nil {
		c.settingsWin.history = map[string][]view.DelegationItem{}
	}
	msg := view.SettingsHistory{Presets: []view.PresetHistory{}}
	for _, p := range c.store.Get().Presets {
		items, ok := c.settingsWin.history[p.ID]
		if !ok && !p.Enabled {
			// Read only, once: a switched-off preset has no session to
			// report its history. (A running one reports it when its
			// session starts, so the file is not read twice.)
			h, err := delegation.OpenHistory(c.opts.ConfigDir, p.ID, c.log)
			if err != nil {
				c.log.Warn("delegations.history_open_failed", "preset", p.ID, "err", err.Error())
			}
			items = viewItems(h.Items())
			c.settingsWin.history[p.ID] = items
		}
		if items == nil {
			items = []view.DelegationItem{}
		}
		msg.Presets = append(msg.Presets, view.PresetHistory{ID: p.ID, Items: items})
	}
	c.view.PublishSettings(view.TypeSettingsHistory, view.MustEncode(view.TypeSettingsHistory, msg))
}
