package settingsui

import (
	"yui/app/core/backend"
	"yui/app/core/looks"
	"yui/app/i18n"
	"yui/app/lookfolder"
	"yui/app/settings"
	"yui/app/view"
)

// PublishState sends the saved settings to the settings page. The key
// never leaves the core: the form learns only whether one is set.
func (r *Room) PublishState() {
	all := r.cfg.Store.Get()
	r.mu.Lock()
	r.revision++
	st := view.SettingsState{Revision: r.revision, Path: r.cfg.Store.Path(), ActivePreset: all.ActivePreset,
		Presets: make([]view.PresetForm, len(all.Presets)), Choices: r.choices(r.cfg.Looks.Folders()),
		Audio: view.AudioForm{Muted: all.Audio.Muted, Device: all.Audio.Device},
		Keyboard: view.KeyboardForm{Shortcut: all.Keyboard.ShortcutOrDefault(), ShortcutOff: all.Keyboard.ShortcutOff,
			Note: r.cfg.Host.ShortcutNote()},
		Talk: view.TalkState{TalkForm: view.TalkForm{MaxHops: all.Talk.Hops(), PerMinute: all.Talk.Rate()},
			HopsLimit: settings.MaxTalkHops, PerMinuteLimit: settings.MaxTalkPerMinute},
		Language: all.Language, UILanguage: string(all.UILanguage(i18n.SystemLocale())), NewPreset: newPresetForm(all, r.cfg.Available)}
	for i, p := range all.Presets {
		st.Presets[i] = Form(p)
		if r.cfg.Standings != nil {
			st.Presets[i].Standings = r.cfg.Standings(p.ID)
		}
		if n, ok := r.notes[p.ID]; ok {
			n.apply(&st.Presets[i])
		}
	}
	r.mu.Unlock()
	r.voiceChoices(&st.Choices)
	r.cfg.Pages.PublishSettings(view.TypeSettingsState, view.MustEncode(view.TypeSettingsState, st))
	r.PublishProactive()
}

// Form is preset p as the settings form shows it (no key).
func Form(p settings.Preset) view.PresetForm {
	return view.PresetForm{PresetFields: view.PresetFields{ID: p.ID, Name: p.Name, Enabled: p.Enabled, Look: p.Look,
		ChatAPI: p.ChatAPI, ChatBaseURL: p.ChatBaseURL, Model: p.Model, ReasoningEffort: p.ReasoningEffort,
		Card: p.Card, ContextWindow: p.ContextWindow, AgentID: p.AgentID, ThreadID: p.ThreadID,
		Permissions: view.PermissionsForm{Screen: p.Permissions.Screen, ScreenshotEachTurn: p.Permissions.ScreenshotEachTurn,
			HideFrontmost: p.Permissions.HideFrontmost, LocalPages: p.Permissions.LocalPages,
			BrowserSites: p.Permissions.BrowserSites},
		Voice: new(voiceForm(p.Voice)), SpeechLanguage: new(p.SpeechLanguage)},
		HasKey: p.Key != "", HasVoiceKey: p.Voice.Key != "", ChatID: p.ChatID,
		LookOptions: view.CharacterLookOptions{Breathing: p.LookOptions.Breathing, TouchTurns: p.LookOptions.TouchTurns}}
}

var (
	effortLabels = map[string]string{"": "Model default", "minimal": "Minimal", "low": "Low", "medium": "Medium", "high": "High"}
	screenLabels = map[string]string{
		"ask":   "Ask each time",
		"allow": "Allow",
		"deny":  "Never",
	}
	screenNotes = map[string]string{
		"ask":   "You are asked each time the backend wants to see your screen",
		"allow": "The backend may look at your screen whenever it asks",
		"deny":  "The backend is told no without asking you",
	}
)

func (r *Room) choices(folders []lookfolder.Look) view.SettingsChoices {
	var ch view.SettingsChoices
	for _, id := range settings.ChatAPIs {
		c := view.Choice{ID: id, Label: backend.Label(id), Available: false, Note: "not in this version yet"}
		if r.cfg.Available(id) {
			c.Available, c.Note = true, ""
		}
		ch.ChatAPIs = append(ch.ChatAPIs, c)
	}
	for _, id := range settings.ReasoningEfforts {
		ch.ReasoningEfforts = append(ch.ReasoningEfforts, view.Choice{ID: id, Label: effortLabels[id], Available: true})
	}
	for _, id := range settings.ScreenModes {
		ch.ScreenModes = append(ch.ScreenModes, view.Choice{ID: id, Label: screenLabels[id], Available: true, Note: screenNotes[id]})
	}
	ch.Looks = looks.Choices(folders)
	ch.VRMLooks = looks.VRMChoices(folders)
	return ch
}

// SetStatus records preset id's connection for the settings window's list
// (nil: the preset has no running character) and publishes the list.
// Characters call it with their own lock held, so it takes no
// character's lock.
func (r *Room) SetStatus(id string, st *view.PresetStatus) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if st == nil {
		delete(r.status, id)
	} else {
		r.status[id] = *st
	}
	list := view.SettingsStatus{Presets: []view.PresetStatus{}}
	for _, p := range r.cfg.Store.Get().Presets {
		if s, ok := r.status[p.ID]; ok {
			list.Presets = append(list.Presets, s)
		}
	}
	// Published under the lock so two characters' updates cannot arrive
	// out of order.
	r.cfg.Pages.PublishSettings(view.TypeSettingsStatus, view.MustEncode(view.TypeSettingsStatus, list))
}

// SetHistory records preset id's delegation history (its session's
// latest) and publishes every preset's. Characters call it with their own
// lock held.
func (r *Room) SetHistory(id string, items []view.DelegationItem) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.history[id] = items
	r.publishHistoryLocked()
}

// PublishHistory publishes every preset's history, reading from disk the
// histories of switched-off presets no session has reported.
func (r *Room) PublishHistory() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.publishHistoryLocked()
}

func (r *Room) publishHistoryLocked() {
	msg := view.SettingsHistory{Presets: []view.PresetHistory{}}
	for _, p := range r.cfg.Store.Get().Presets {
		items, ok := r.history[p.ID]
		if !ok && !p.Enabled {
			// Read only, once: a switched-off preset has no session to
			// report its history. (A running one reports it when its
			// session starts, so the file is not read twice.)
			items = r.cfg.Host.StoredHistory(p.ID)
			r.history[p.ID] = items
		}
		if items == nil {
			items = []view.DelegationItem{}
		}
		msg.Presets = append(msg.Presets, view.PresetHistory{ID: p.ID, Items: items})
	}
	r.cfg.Pages.PublishSettings(view.TypeSettingsHistory, view.MustEncode(view.TypeSettingsHistory, msg))
}
