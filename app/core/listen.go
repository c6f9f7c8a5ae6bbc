package core

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"yui/app/listen"
	"yui/app/settings"
	"yui/app/view"
)

// listening is the core's ear: one listener for every character (there is
// one microphone), the pill state it last reported, and the meter.
type listening struct {
	l *listen.Listener

	mu     sync.Mutex
	state  listen.State
	pubSeq uint64 // publishSettingsListen calls; only the latest publishes
}

// newListener makes the core's listener, closed until Run applies the
// settings.
func (c *Core) newListener() *listen.Listener {
	return listen.New(listen.Options{
		Input:       c.opts.Input,
		Transcriber: listen.EndpointFromSettings(c.store.Get().Listen),
		Send:        c.sendSpoken,
		BargeIn:     c.bargeIn,
		Speaking:    c.speakingNow,
		OnState:     c.onListenState,
		OnLevel:     c.onListenLevel,
		Logger:      c.log,
	}, listen.Config{})
}

// applyListen gives the listener the saved settings (Run, and every save).
func (c *Core) applyListen() {
	l := c.store.Get().Listen
	c.ear.l.SetTranscriber(listen.EndpointFromSettings(l))
	c.ear.l.SetConfig(listen.FromSettings(l))
	c.publishListen()
}

// ListenOnce is the tray's "Listen": the next utterance becomes a spoken
// turn, without always-on listening. Safe from any goroutine.
func (c *Core) ListenOnce() { c.ear.l.ListenOnce() }

// target is the pet spoken turns go to: the one the settings name when it
// runs, else the main character.
func (c *Core) target() *pet {
	all := c.store.Get()
	if t := all.Listen.Target; t != "" {
		if pt := c.pet(t); pt != nil {
			return pt
		}
	}
	return c.pet(all.ActivePreset)
}

// sendSpoken sends a transcript as a spoken turn of the target character.
func (c *Core) sendSpoken(text string) {
	pt := c.target()
	if pt == nil {
		c.log.Warn("listen_no_character")
		return
	}
	pt.sess.SendSpoken(text)
}

// speakingNow is whether any character is heard now, and since when the
// most recent sentence of those heard plays.
func (c *Core) speakingNow(now time.Time) (bool, time.Time) {
	any := false
	var since time.Time
	for _, pt := range c.allPets() {
		if ok, s := pt.heard.Speaking(now); ok {
			any = true
			if s.After(since) {
				since = s
			}
		}
	}
	return any, since
}

// bargeIn stops the characters heard now.
func (c *Core) bargeIn() {
	now := time.Now()
	for _, pt := range c.allPets() {
		if ok, _ := pt.heard.Speaking(now); ok {
			pt.sess.BargeIn()
		}
	}
}

func (c *Core) allPets() []*pet {
	c.petsMu.Lock()
	defer c.petsMu.Unlock()
	out := make([]*pet, 0, len(c.pets))
	for _, pt := range c.pets {
		out = append(out, pt)
	}
	return out
}

func (c *Core) onListenState(st listen.State) {
	c.ear.mu.Lock()
	c.ear.state = st
	c.ear.mu.Unlock()
	c.publishListen()
}

// publishListen tells every pet page the pill's voice segment.
func (c *Core) publishListen() {
	for _, pt := range c.allPets() {
		c.publishListenTo(pt)
	}
}

// publishListenTo tells one pet page the pill's voice segment. The state
// is read and published under the ear's lock, so two goroutines reporting
// states cannot publish them out of order (the page keeps the last one).
func (c *Core) publishListenTo(pt *pet) {
	c.ear.mu.Lock()
	defer c.ear.mu.Unlock()
	st := c.ear.state
	if st.Mode == "" {
		st.Mode = listen.ModeOff
	}
	all := c.store.Get()
	target := all.Listen.Target
	if p, ok := all.Preset(target); !ok || !p.Enabled {
		target = all.ActivePreset
	}
	pt.publish(view.TypeListen, view.ListenState{Mode: st.Mode, Error: st.Error, Fix: st.Fix, Open: st.Open,
		PushToTalkKey: all.Listen.PushToTalk(), Target: pt.preset == target})
}

// dbScale maps dBFS to the meter's 0–100 (−80 dBFS to 0).
func dbScale(db float64) int {
	return int(math.Round(math.Max(0, math.Min(100, (db+80)*100/80))))
}

func (c *Core) onListenLevel(lv listen.Level) {
	c.view.Send(view.RoleSettings, "", view.MustEncode(view.TypeListenLevel,
		view.ListenLevel{Level: dbScale(lv.DB), Floor: dbScale(lv.Floor), Threshold: dbScale(lv.Threshold)}))
}

// onListenMessage handles the listening messages of the pages.
func (c *Core) onListenMessage(peer view.Peer, m view.Message) {
	switch m.Type {
	case view.TypeListenHold:
		var h view.ListenHold
		if peer.Role != view.RolePet || json.Unmarshal(m.Body, &h) != nil {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role)
			return
		}
		c.ear.l.Hold(h.Held)
	case view.TypeListenTarget:
		if peer.Role != view.RolePet || peer.Preset == "" {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role)
			return
		}
		if err := c.store.Update(func(s *settings.Settings) { s.Listen.Target = peer.Preset }); err != nil {
			c.log.Warn("listen_target_not_saved", "err", err.Error())
			return
		}
		c.log.Info("listen_target", "preset", peer.Preset)
		c.publishListen()
		c.publishSettingsListen()
	case view.TypeListenMeter:
		var mt view.ListenMeter
		if peer.Role != view.RoleSettings || json.Unmarshal(m.Body, &mt) != nil {
			c.log.Warn("view_refused", "type", m.Type, "role", peer.Role)
			return
		}
		c.ear.l.Meter(mt.On)
	}
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

// listenSaved applies a save that changed the Listening section.
func (c *Core) listenSaved() {
	l := c.store.Get().Listen
	c.log.Info("listen_settings_saved", "on", l.On, "barge_in", l.BargeIn, "sensitivity", l.SensitivityPercent(), "has_key", l.Key != "")
	c.applyListen()
	c.publishSettingsListen()
}

// publishSettingsListen tells the settings window the Listening section:
// the saved form and the capture devices (asked of the sound server, off
// the caller's goroutine).
func (c *Core) publishSettingsListen() {
	c.ear.mu.Lock()
	c.ear.pubSeq++
	seq := c.ear.pubSeq
	c.ear.mu.Unlock()
	go func() {
		l := c.store.Get().Listen
		st := view.SettingsListen{Form: view.ListenForm{On: l.On, Device: l.Device, Sensitivity: l.SensitivityPercent(),
			BargeIn: l.BargeIn, BaseURL: l.BaseURL, Model: l.Model, Language: l.Language, Target: l.Target,
			PushToTalkKey: l.PushToTalk(), HasKey: l.Key != ""},
			Devices: []view.Choice{{ID: "", Label: "Automatic (echo-cancelled microphone when there is one)", Available: true}}}
		for _, k := range settings.PushToTalkKeys[1:] {
			st.Keys = append(st.Keys, view.Choice{ID: k, Label: k, Available: true})
		}
		if c.opts.Input == nil {
			st.Note = "This system has no microphone path: listening is not available."
		} else {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			srcs, err := c.opts.Input.Sources(ctx)
			cancel()
			if err != nil {
				st.Note = "No sound server was found, so Yui cannot hear you. Start PulseAudio or PipeWire."
			}
			for _, s := range srcs {
				if s.Monitor {
					continue // what the speakers play, not a microphone
				}
				label := s.Description
				switch {
				case s.EchoCancelled:
					label += " (echo-cancelled)"
				case s.Default:
					label += " (default)"
				}
				st.Devices = append(st.Devices, view.Choice{ID: s.Name, Label: label, Available: true})
			}
		}
		if l.Device != "" && !slices.ContainsFunc(st.Devices, func(ch view.Choice) bool { return ch.ID == l.Device }) {
			st.Devices = append(st.Devices, view.Choice{ID: l.Device, Label: l.Device, Available: false, Note: "not connected now"})
		}
		c.ear.mu.Lock()
		defer c.ear.mu.Unlock()
		if seq != c.ear.pubSeq {
			return // a later call publishes fresher settings
		}
		c.view.PublishSettings(view.TypeSettingsListen, view.MustEncode(view.TypeSettingsListen, st))
	}()
}
