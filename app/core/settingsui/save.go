package settingsui

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"yui/app/core/backend"
	"yui/app/core/looks"
	"yui/app/hotkey"
	"yui/app/lookfolder"
	"yui/app/settings"
	"yui/app/view"
)

// Save applies a save from the settings window: it merges the form's
// presets into the saved settings (keeping what the form does not edit:
// chat_id, window position, and the key unless a new one was typed),
// validates and writes the file — the core then brings the running
// characters in line — and answers the page. A refused save changes
// nothing and names the field.
func (r *Room) Save(req view.SaveSettings) {
	res := view.SettingsResult{RequestID: req.RequestID, OK: true}
	var changes map[string]*backend.Change
	installed, _ := r.programs()
	folders := r.cfg.Looks.Folders()
	_, after, err := r.cfg.Host.Save(func(s *settings.Settings) error {
		var fe *settings.FieldError
		if changes, fe = r.mergeForm(s, req, installed, folders); fe != nil {
			return fe
		}
		return nil
	})
	if err != nil {
		var fe *settings.FieldError
		switch {
		case errors.Is(err, ErrQuitting):
			res.OK, res.Error = false, quittingText
			r.answer(res)
			return
		case errors.As(err, &fe):
			res.OK, res.Field, res.Error, res.Suggestion = false, fe.Field, fe.Reason, fe.Suggestion
		default:
			res.OK, res.Error = false, "the settings could not be saved: "+err.Error()
		}
		// The reason may quote the value (a key pasted into the URL
		// field), so the log names the field only.
		r.log.Warn("settings_refused", "field", res.Field)
		r.answer(res)
		return
	}
	r.log.Info("settings_saved", "presets", len(after.Presets), "active", after.ActivePreset)
	for id, ch := range changes {
		r.log.Info("settings_backend_changed", "preset", id, "origin", ch.To, "key_dropped", ch.KeyDropped, "screen_reset", ch.ScreenReset)
	}
	r.mu.Lock()
	r.notes = notesAfterSave(r.notes, changes, after)
	r.mu.Unlock()
	r.answer(res)
	r.PublishState()
	r.PublishHistory() // the list of presets may have changed
}

// mergeForm rewrites s from the form. It returns a FieldError for what the
// settings file would accept but this build cannot run (choosing an
// unavailable chat_api, an unknown look, a main character that is off, a
// system voice program that is not installed, the speech endpoint without
// a URL); Validate checks the rest. installed says which voice programs
// are. On error s is left half-written; Store.Change drops it.
// A preset moved to another backend loses its key and standing screen
// permissions (backend.Bind); the changes are returned by preset id. A
// speech endpoint moved to another origin loses its key the same way.
func (r *Room) mergeForm(s *settings.Settings, req view.SaveSettings, installed map[string]bool, folders []lookfolder.Look) (map[string]*backend.Change, *settings.FieldError) {
	old := map[string]settings.Preset{}
	for _, p := range s.Presets {
		old[p.ID] = p
	}
	next := make([]settings.Preset, 0, len(req.Presets))
	changes := map[string]*backend.Change{}
	var refused *settings.FieldError
	saved := *s // the saved list, for a new preset's KeyFrom
	for i, f := range req.Presets {
		was, existed := old[f.ID]
		p, ch := mergePreset(saved, was, existed, f)
		if ch != nil {
			changes[p.ID] = ch
		}
		next = append(next, p)
		if refused == nil {
			field := func(name string) string { return fmt.Sprintf("presets[%d].%s", i, name) }
			refused = r.refusal(was, p, existed, installed, folders, field)
		}
	}
	s.Presets = next
	s.ActivePreset = req.ActivePreset
	if req.Listen != nil {
		mergeListen(s, *req.Listen, req.ListenKey)
	}
	if t := s.Listen.Target; t != "" && !slices.ContainsFunc(next, func(p settings.Preset) bool { return p.ID == t }) {
		// The character who heard is gone: spoken turns go to the main one.
		s.Listen.Target = ""
	}
	if req.Proactive != nil {
		mergeProactive(s, *req.Proactive)
	}
	if req.Language != nil {
		s.Language = strings.TrimSpace(*req.Language)
	}
	if req.Talk != nil {
		// Validate refuses a cap out of range, naming talk.max_hops or
		// talk.per_minute.
		s.Talk = settings.Talk{MaxHops: req.Talk.MaxHops, PerMinute: req.Talk.PerMinute}
	}
	if req.Audio != nil {
		s.Audio = settings.Audio{Muted: req.Audio.Muted, Device: strings.TrimSpace(req.Audio.Device)}
	}
	if req.Keyboard != nil && refused == nil {
		kb, fe := mergeKeyboard(*req.Keyboard)
		if fe != nil {
			return nil, fe
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

// mergePreset is the saved preset old (existed false: a new one, which
// may take the key of a preset in saved: KeyFrom) with the form's fields,
// and what binding it to its backend changed (nil: the origin stayed).
func mergePreset(saved settings.Settings, old settings.Preset, existed bool, f view.SavePreset) (settings.Preset, *backend.Change) {
	p := old
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
		p.Key = keyFromPreset(saved, f.KeyFrom, p.ChatBaseURL) // newpreset.go
	}
	p.Model = strings.TrimSpace(f.Model)
	p.ReasoningEffort = f.ReasoningEffort
	p.Card = f.Card
	p.ContextWindow = f.ContextWindow
	p.AgentID = strings.TrimSpace(f.AgentID)
	p.ThreadID = strings.TrimSpace(f.ThreadID)
	p.Permissions = settings.Permissions{Screen: f.Permissions.Screen, ScreenshotEachTurn: f.Permissions.ScreenshotEachTurn,
		HideFrontmost: f.Permissions.HideFrontmost, LocalPages: f.Permissions.LocalPages,
		BrowserSites: keptSites(old.Permissions.BrowserSites, f.Permissions.BrowserSites)}
	if f.Voice != nil {
		p.Voice = mergeVoice(p.Voice, *f.Voice)
	}
	if f.SpeechLanguage != nil {
		p.SpeechLanguage = strings.TrimSpace(*f.SpeechLanguage)
	}
	voiceKeyTyped := f.VoiceKey != nil && strings.TrimSpace(*f.VoiceKey) != ""
	if f.VoiceKey != nil {
		p.Voice.Key = strings.TrimSpace(*f.VoiceKey)
	}
	if !existed {
		return p, nil
	}
	if !voiceKeyTyped && backend.Origin(old.Voice.BaseURL) != backend.Origin(p.Voice.BaseURL) {
		// The speech key is bound to its endpoint as the chat key is to
		// its backend.
		p.Voice.Key = ""
	}
	return p, backend.Bind(old, &p, f.Key != nil && strings.TrimSpace(*f.Key) != "")
}

// refusal is why preset p, saved from old (existed false: new), cannot be
// saved by this build, or nil.
func (r *Room) refusal(old, p settings.Preset, existed bool, installed map[string]bool, folders []lookfolder.Look, field func(string) string) *settings.FieldError {
	switch {
	case (!existed || old.Look != p.Look) && looks.Problem(p.Look, folders) != "":
		// As with chat_api: a look from a newer version's file stays (the
		// pet draws its default); choosing an unknown or refused one is
		// refused.
		return &settings.FieldError{Field: field("look"), Reason: looks.Problem(p.Look, folders)}
	case (!existed || old.ChatAPI != p.ChatAPI) &&
		slices.Contains(settings.ChatAPIs, p.ChatAPI) && !r.cfg.Available(p.ChatAPI):
		// A file may name an API this version cannot run (the pet then
		// says so); the form only refuses choosing one.
		return &settings.FieldError{Field: field("chat_api"), Reason: fmt.Sprintf("%q is not available in this version yet", p.ChatAPI)}
	}
	return refuseVoice(old.Voice, p.Voice, existed, installed, field)
}

// mergeKeyboard reads the form's shortcut; one that is not a shortcut is
// refused.
func mergeKeyboard(f view.KeyboardForm) (settings.Keyboard, *settings.FieldError) {
	kb := settings.Keyboard{ShortcutOff: f.ShortcutOff}
	if t := strings.TrimSpace(f.Shortcut); t != "" {
		combo, err := hotkey.Parse(t)
		if err != nil {
			return kb, &settings.FieldError{Field: "keyboard.shortcut", Reason: strings.TrimPrefix(err.Error(), "hotkey: ")}
		}
		if kb.Shortcut = combo.String(); kb.Shortcut == hotkey.Default {
			kb.Shortcut = ""
		}
	}
	return kb, nil
}

// mergeVoice is the saved voice v with the form's fields (the speech key
// is the form's VoiceKey, merged by mergePreset).
func mergeVoice(v settings.Voice, f view.VoiceForm) settings.Voice {
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

// mergeListen puts the settings form's Listening section into s (a
// save_settings that carries it: the form's one Save). key nil keeps the
// saved transcription key, "" removes it. The target is the pet menu's
// choice ("Send my voice here"), not the form's: it is kept.
func mergeListen(s *settings.Settings, f view.ListenForm, key *string) {
	k := s.Listen.Key
	if key != nil {
		k = strings.TrimSpace(*key)
	}
	s.Listen = settings.Listen{On: f.On, Device: f.Device, Sensitivity: f.Sensitivity, BargeIn: f.BargeIn,
		BaseURL: strings.TrimSpace(f.BaseURL), Key: k, Model: strings.TrimSpace(f.Model), Language: strings.TrimSpace(f.Language),
		Target: s.Listen.Target, PushToTalkKey: f.PushToTalkKey}
	if s.Listen.PushToTalkKey == settings.DefaultPushToTalkKey {
		s.Listen.PushToTalkKey = ""
	}
}
