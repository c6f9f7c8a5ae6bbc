package core

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"yui/app/hotkey"
	"yui/app/lookfolder"
	"yui/app/settings"
	"yui/app/view"
)

// saveSettings applies a save from the settings window: it merges the
// form's presets into the saved settings (keeping what the form does not
// edit: chat_id, window position, and the key unless a new one was typed),
// validates and writes the file, then brings the running pets in line and
// answers the page. A refused save changes nothing and names the field.
func (c *Core) saveSettings(req view.SaveSettings) {
	c.applyMu.Lock()
	defer c.applyMu.Unlock()
	res := view.SettingsResult{RequestID: req.RequestID, OK: true}
	if c.stopping {
		res.OK, res.Error = false, "Yui is quitting; the settings were not saved"
		c.view.Send(view.RoleSettings, "", view.MustEncode(view.TypeSettingsResult, res))
		return
	}
	// before is read inside the change, so a write that lands between
	// (a prompt answered "Always") is in it and reconcile sees what this
	// save really changed.
	var before settings.Settings
	var changes map[string]*backendChange
	installed, _ := c.programs()
	folders := c.folderLooks()
	err := c.store.Change(func(s *settings.Settings) error {
		before = *s
		before.Presets = slices.Clone(s.Presets)
		var fe *settings.FieldError
		if changes, fe = mergeForm(s, req, installed, folders); fe != nil {
			return fe
		}
		return nil
	})
	if err != nil {
		var fe *settings.FieldError
		if errors.As(err, &fe) {
			res.OK, res.Field, res.Error, res.Suggestion = false, fe.Field, fe.Reason, fe.Suggestion
		} else {
			res.OK, res.Error = false, "the settings could not be saved: "+err.Error()
		}
	}
	if !res.OK {
		// The reason may quote the value (a key pasted into the URL
		// field), so the log names the field only.
		c.log.Warn("settings_refused", "field", res.Field)
		c.view.Send(view.RoleSettings, "", view.MustEncode(view.TypeSettingsResult, res))
		return
	}
	after := c.store.Get()
	c.log.Info("settings_saved", "presets", len(after.Presets), "active", after.ActivePreset)
	for id, ch := range changes {
		c.log.Info("settings_backend_changed", "preset", id, "origin", ch.To, "key_dropped", ch.KeyDropped, "screen_reset", ch.ScreenReset)
	}
	c.settingsWin.mu.Lock()
	c.settingsWin.notes = notesAfterSave(c.settingsWin.notes, changes, after)
	c.settingsWin.mu.Unlock()
	c.reconcile(before, after)
	if before.Audio != after.Audio {
		c.applyAudio(after.Audio)
	}
	if before.Listen != after.Listen {
		c.listenSaved()
	}
	c.petsMu.Lock()
	running := c.started
	c.petsMu.Unlock()
	if running && before.Keyboard != after.Keyboard {
		c.applyShortcut(true)
	}
	c.view.Send(view.RoleSettings, "", view.MustEncode(view.TypeSettingsResult, res))
	c.publishSettingsState()
	c.publishHistory() // the list of presets may have changed
	c.desktopChanged() // the tray lists the enabled characters
}

// mergeForm rewrites s from the form. It returns a FieldError for what the
// settings file would accept but this build cannot run (choosing an
// unavailable chat_api, an unknown look, a main character that is off, a
// system voice program that is not installed, the speech endpoint without
// a URL); Validate checks the rest. installed says which voice programs
// are. On error s is left half-written; Store.Change drops it.
// A preset moved to another backend loses its key and standing screen
// permissions (bindToBackend); the changes are returned by preset id. A
// speech endpoint moved to another origin loses its key the same way.
func mergeForm(s *settings.Settings, req view.SaveSettings, installed map[string]bool, folders []lookfolder.Look) (map[string]*backendChange, *settings.FieldError) {
	old := map[string]settings.Preset{}
	for _, p := range s.Presets {
		old[p.ID] = p
	}
	next := make([]settings.Preset, 0, len(req.Presets))
	changes := map[string]*backendChange{}
	var refused *settings.FieldError
	for i, f := range req.Presets {
		field := func(name string) string { return fmt.Sprintf("presets[%d].%s", i, name) }
		p, existed := old[f.ID]
		if !existed {
			p = settings.NewPreset(f.Name)
			p.ID = f.ID
		}
		p.Name = strings.TrimSpace(f.Name)
		p.Enabled = f.Enabled
		p.Look = f.Look
		p.ChatAPI = f.ChatAPI
		p.ChatBaseURL = strings.TrimSpace(f.ChatBaseURL)
		if f.Key != nil {
			p.Key = strings.TrimSpace(*f.Key)
		} else if !existed && f.KeyFrom != "" {
			p.Key = keyFromPreset(*s, f.KeyFrom, p.ChatBaseURL) // newpreset.go: s is still the saved list here
		}
		p.Model = strings.TrimSpace(f.Model)
		p.ReasoningEffort = f.ReasoningEffort
		p.Card = f.Card
		p.ContextWindow = f.ContextWindow
		p.AgentID = strings.TrimSpace(f.AgentID)
		p.ThreadID = strings.TrimSpace(f.ThreadID)
		p.Permissions = settings.Permissions{Screen: f.Permissions.Screen, ScreenshotEachTurn: f.Permissions.ScreenshotEachTurn,
			HideFrontmost: f.Permissions.HideFrontmost}
		if f.Voice != nil {
			p.Voice = mergeVoice(p.Voice, *f.Voice, nil)
		}
		voiceKeyTyped := f.VoiceKey != nil && strings.TrimSpace(*f.VoiceKey) != ""
		if f.VoiceKey != nil {
			p.Voice.Key = strings.TrimSpace(*f.VoiceKey)
		}
		if existed && !voiceKeyTyped && backendOrigin(old[f.ID].Voice.BaseURL) != backendOrigin(p.Voice.BaseURL) {
			// The speech key is bound to its endpoint as the chat key is
			// to its backend.
			p.Voice.Key = ""
		}
		if existed {
			if ch := bindToBackend(old[f.ID], &p, f.Key != nil && strings.TrimSpace(*f.Key) != ""); ch != nil {
				changes[p.ID] = ch
			}
		}
		next = append(next, p)
		if refused != nil {
			continue
		}
		switch {
		case (!existed || old[f.ID].Look != p.Look) && lookProblem(p.Look, folders) != "":
			// As with chat_api: a look from a newer version's file stays
			// (the pet draws its default); choosing an unknown or refused
			// one is refused.
			refused = &settings.FieldError{Field: field("look"), Reason: lookProblem(p.Look, folders)}
		case (!existed || old[f.ID].ChatAPI != p.ChatAPI) &&
			slices.Contains(settings.ChatAPIs, p.ChatAPI) && !slices.Contains(AvailableChatAPIs, p.ChatAPI):
			// A file may name an API this version cannot run (the pet
			// then says so); the form only refuses choosing one.
			refused = &settings.FieldError{Field: field("chat_api"), Reason: fmt.Sprintf("%q is not available in this version yet", p.ChatAPI)}
		default:
			refused = refuseVoice(old[f.ID].Voice, p.Voice, existed, installed, field)
		}
	}
	s.Presets = next
	s.ActivePreset = req.ActivePreset
	if req.Listen != nil {
		mergeListen(s, *req.Listen, req.ListenKey) // listen.go
	}
	if t := s.Listen.Target; t != "" && !slices.ContainsFunc(next, func(p settings.Preset) bool { return p.ID == t }) {
		// The character who heard is gone: spoken turns go to the main one.
		s.Listen.Target = ""
	}
	if req.Audio != nil {
		s.Audio = settings.Audio{Muted: req.Audio.Muted, Device: strings.TrimSpace(req.Audio.Device)}
	}
	if req.Keyboard != nil && refused == nil {
		kb := settings.Keyboard{ShortcutOff: req.Keyboard.ShortcutOff}
		if t := strings.TrimSpace(req.Keyboard.Shortcut); t != "" {
			combo, err := hotkey.Parse(t)
			if err != nil {
				return nil, &settings.FieldError{Field: "keyboard.shortcut", Reason: strings.TrimPrefix(err.Error(), "hotkey: ")}
			}
			if kb.Shortcut = combo.String(); kb.Shortcut == hotkey.Default {
				kb.Shortcut = ""
			}
		}
		s.Keyboard = kb
	}
	if refused != nil {
		return nil, refused
	}
	if main, ok := s.Preset(s.ActivePreset); ok && !main.Enabled {
		return nil, &settings.FieldError{Field: "active_preset", Reason: "the main character must be shown (enabled)"}
	}
	return changes, nil
}

// reconcile brings the running pets in line with after: pets of presets
// now off or gone stop (window and connection), new ones start, and a
// pet whose connection settings or main-ness changed gets a new session
// (its window stays). Other changes apply in place. Call with applyMu
// held.
func (c *Core) reconcile(before, after settings.Settings) {
	c.petsMu.Lock()
	started := c.started
	c.petsMu.Unlock()
	for _, old := range before.Presets {
		p, ok := after.Preset(old.ID)
		if old.Enabled && (!ok || !p.Enabled) {
			c.removePet(old.ID)
		}
	}
	for _, p := range after.Presets {
		if !p.Enabled {
			continue
		}
		main := p.ID == after.ActivePreset
		old, had := before.Preset(p.ID)
		switch {
		case !had || !old.Enabled:
			c.addPet(p, main, started)
		case connectionChanged(old, p) || (old.ID == before.ActivePreset) != main || c.vocabularyChanged(old, p):
			// A new tag table changes the hello's vocabulary: a new
			// connection declares it.
			c.replacePet(p, main, started)
		default:
			c.updatePet(old, p)
		}
	}
}

// connectionChanged reports a change that needs a new connection (a
// Standard Agents character's agent is read when it makes a thread; its
// thread is its connection).
func connectionChanged(a, b settings.Preset) bool {
	return a.ChatAPI != b.ChatAPI || a.ChatBaseURL != b.ChatBaseURL || a.Key != b.Key || a.ChatID != b.ChatID ||
		a.ThreadID != b.ThreadID
}

func (c *Core) addPet(p settings.Preset, main, started bool) {
	if c.installPet(p, main, started) == nil {
		return
	}
	c.log.Info("pet_added", "preset", p.ID, "main", main)
	// A browser loading the pages from the core learns the new page's
	// token here (the trace is never the log).
	c.trace(map[string]any{"event": "page_token", "preset": p.ID, "token": c.pageToken(p.ID)})
	if started && !c.opts.NoWindows {
		c.sup.Run(c.petSpec(p))
	}
}

func (c *Core) removePet(id string) {
	c.petsMu.Lock()
	pt := c.pets[id]
	delete(c.pets, id)
	c.petsMu.Unlock()
	if pt == nil {
		return
	}
	pt.close()
	// The window quits when its shell connection ends; the supervisor
	// escalates if it lingers, and does not restart it.
	c.sup.StopOne("pet:" + id)
	c.sup.StopOne(messageWindowName(id))
	c.view.Disconnect(view.RoleShell, id)
	c.view.Disconnect(view.RoleMessageShell, id)
	c.revokeWindow(id)
	c.view.Forget(id)
	c.log.Info("pet_removed", "preset", id)
}

func (c *Core) replacePet(p settings.Preset, main, started bool) {
	if c.installPet(p, main, started) != nil {
		c.log.Info("pet_reconnected", "preset", p.ID, "main", main)
	}
}

// installPet makes a new pet (session) for p in place of the running one,
// if any, which it closes first; publishes the new pet's fresh state (the
// old session's bubble, reasoning and prompt belong to a conversation that
// ended with its connection); and starts its session once Run has started.
// A pet that cannot be made leaves none (logged) and returns nil.
func (c *Core) installPet(p settings.Preset, main, started bool) *pet {
	if old := c.pet(p.ID); old != nil {
		old.close()
	}
	pt, err := c.newPet(p, main, c.lookVocabulary(p.Look), c.turns)
	c.petsMu.Lock()
	if err != nil {
		delete(c.pets, p.ID)
		c.petsMu.Unlock()
		c.log.Error("pet_start_failed", "preset", p.ID, "err", err.Error())
		return nil
	}
	c.pets[p.ID] = pt
	c.petsMu.Unlock()
	c.view.Forget(p.ID)
	c.publishInitial(p, settings.Report{})
	pt.publishAll()
	if started {
		pt.sess.Start()
	}
	return pt
}

// updatePet applies changes that need no new connection: name and look
// (the page's preset topic and the windows' titles), permissions (the gate and the pill), context window (the
// usage readout).
func (c *Core) updatePet(old, p settings.Preset) {
	pt := c.pet(p.ID)
	if pt == nil {
		return
	}
	if old.Name != p.Name || old.Look != p.Look {
		c.publishInitial(p, settings.Report{})
	}
	// Always handed to the gate (it changes nothing when equal), so the
	// gate follows the file even if it drifted.
	pt.gate.SetPermissions(p.Permissions)
	pt.mu.Lock()
	pt.publishPill()
	if old.ContextWindow != p.ContextWindow {
		pt.publishUsage()
	}
	pt.mu.Unlock()
	// The voice changes in place: engine from the next sentence, volume
	// from the next chunk, a mute at once.
	pt.speaker.Configure(voiceConfig(p, c.store.Get().Audio))
	pt.publishVoice()
}

// mergeVoice is the saved voice v with the form's fields; key nil keeps
// the saved speech key, "" removes it.
func mergeVoice(v settings.Voice, f view.VoiceForm, key *string) settings.Voice {
	v.Engine = f.Engine
	v.Program = f.Program
	v.SystemVoice = strings.TrimSpace(f.SystemVoice)
	v.Rate = f.Rate
	v.BaseURL = strings.TrimSpace(f.BaseURL)
	v.Model = strings.TrimSpace(f.Model)
	v.EndpointVoice = strings.TrimSpace(f.EndpointVoice)
	v.Format = f.Format
	v.EmotionTextMap = maps.Clone(f.EmotionTextMap)
	if len(v.EmotionTextMap) == 0 {
		v.EmotionTextMap = nil
	}
	vol := f.Volume
	v.Volume = &vol
	v.Muted = f.Muted
	if key != nil {
		v.Key = strings.TrimSpace(*key)
	}
	return v
}

// refuseVoice refuses what the file would accept but this machine cannot
// run, only when chosen: a system voice program that is not installed,
// or the speech endpoint without a URL.
func refuseVoice(old, v settings.Voice, existed bool, installed map[string]bool, field func(string) string) *settings.FieldError {
	prog := v.Program
	if prog == "" {
		prog = "espeak-ng"
	}
	changed := func(a, b string) bool { return !existed || a != b }
	switch {
	case v.EngineName() == "system" && !installed[prog] && (changed(old.EngineName(), v.EngineName()) || changed(old.Program, v.Program)):
		return &settings.FieldError{Field: field("voice.program"), Reason: prog + " is not installed on this computer"}
	case v.EngineName() == "endpoint" && v.BaseURL == "" && (changed(old.EngineName(), v.EngineName()) || changed(old.BaseURL, v.BaseURL)):
		return &settings.FieldError{Field: field("voice.base_url"), Reason: "the speech endpoint needs a URL"}
	}
	return nil
}
