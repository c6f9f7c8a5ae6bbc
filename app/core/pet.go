package core

import (
	"fmt"
	"log/slog"
	"slices"

	"yui/app/clientctx"
	"yui/app/core/backend"
	"yui/app/core/character"
	"yui/app/core/petview"
	"yui/app/i18n"
	"yui/app/look"
	"yui/app/mcp"
	"yui/app/permission"
	apppet "yui/app/pet"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/voice"
)

// SpeechRate is the pace of a sentence shown without sound, in characters
// per second: the engine is off, there is no sound server, the character
// is muted, or the sentence's synthesis failed.
const SpeechRate = 15

// pet is one enabled preset's character as the core runs her
// (app/core/character: her session, voice, gates, MCP servers,
// transcript) with her page's presenter (petview: the session's events as
// view topics and transcript rows).
type pet struct {
	*character.Character
	view *petview.View
}

func (c *Core) newPet(p settings.Preset, main bool) (*pet, error) {
	id := p.ID
	lg := c.log.With("preset", p.ID)
	tr := petview.OpenHistory(c.opts.ConfigDir, p, c.view, lg)
	pt := &pet{Character: &character.Character{Preset: id, History: tr, Talk: c.talk, Body: c.life}}
	pt.view = petview.New(petview.Config{Preset: p.ID, Pages: c.view, Host: c.petHost, Transcript: tr, Logger: lg,
		Character: pt, OnTyped: func() { c.tip.Drop(id) }})
	pt.View = pt.view
	pt.Speak(voice.Options{Name: "Yui — " + p.Name, Output: c.opts.Sound, Global: c.mute, Logger: lg,
		Pace: SpeechRate, Engine: c.opts.VoiceEngine}, c.spokenVoice(p))
	// The character is bound to the backend it was made for
	// (backend.Binding): no endpoint, key or saved answer goes to another.
	bound := backend.Bound(c.store, p, c.demoURL, c.available)
	slot := petview.NewSlot(pt.view)
	pt.MCP = c.newMCP(p, slot, lg)
	ch, err := apppet.New(apppet.Config{
		Preset:    p,
		PresetNow: func() settings.Preset { q, _ := c.presetNow(id); return q },
		Main:      main,
		ConfigDir: c.opts.ConfigDir,
		History:   tr,
		Memory:    c.mem.Of(p.ID),
		MCP:       pt.MCP,
		Endpoint:  bound.Endpoint,
		Key:       bound.Key,
		Backend:   backend.Name(p),
		Screen:    c.opts.Screen,
		Windows:   c.life.Windows(),
		Body:      func() look.BodyState { return c.life.Look(id) },
		BodyLine:  func() clientctx.Body { return c.life.Context(id) },
		BodyActor: c.life.Actor(id),
		SavePermission: func(m permission.Mode) error {
			err := bound.SavePermission(m)
			if err == nil {
				c.sui.PublishState()
			}
			return err
		},
		OnPrompt:       slot.Show,
		OnPromptClosed: slot.Withdraw,
		SaveThread: func(thread string) error {
			if err := bound.SaveThread(thread); err != nil {
				return err
			}
			c.log.Info("thread_saved", "preset", id, "thread", thread)
			c.sui.PublishState()
			return nil
		},
		OnThread: pt.view.SetThread,
		Among: apppet.Among{Relations: c.rel.Relations(), Cast: c.rel.Names(), Talk: c.talk,
			LocalPages: func() bool { q, ok := c.presetNow(id); return ok && q.Permissions.LocalPages },
			Sites:      p.Permissions.BrowserSites, SaveSite: bound.SaveSite},
		Voice:      pt.Speaker,
		Vocabulary: c.presetVocabulary(p),
		Language:   c.store.Get().SpokenLanguage(p, i18n.SystemLocale()),
		Frontmost:  c.front.Current,
		Logger:     lg,
		TurnLog:    c.turns.With("preset", p.ID),
		OnEvent: func(e session.Event) {
			pt.view.OnEvent(e)
			c.companion.OnEvent(id, e)
			c.life.OnEvent(id, e)
		},
	})
	if err != nil {
		pt.Speaker.Close()
		if pt.MCP != nil {
			pt.MCP.Close()
		}
		tr.Close()
		return nil, fmt.Errorf("core: session for %s: %w", p.ID, err)
	}
	pt.Gate, pt.Sites, pt.Session = ch.Gate, ch.Sites, ch.Session
	c.life.PublishTo(id) // her page's pose, and its menu's Go to bed
	return pt, nil
}

// newMCP is preset p's MCP hub, started: her servers on a request wire,
// their prompts in her page; nil on push and Standard Agents or without
// servers (docs/mcp.md). Her answers are saved and shown in the settings
// window's "What she remembers".
func (c *Core) newMCP(p settings.Preset, slot *petview.Slot, lg *slog.Logger) *mcp.Hub {
	if !apppet.MCPApplies(p.ChatAPI) || len(p.MCPServers) == 0 {
		return nil
	}
	id := p.ID
	h := mcp.New(mcp.Config{Preset: id, Backend: backend.Name(p), Servers: p.MCPServers, Grants: p.MCPGrants,
		SaveGrant: func(tool, mode string) error {
			defer c.mind.Publish()
			return c.store.Change(func(s *settings.Settings) error { return s.SetMCPGrant(id, tool, mode) })
		},
		OnPrompt: slot.Show, OnPromptClosed: slot.Withdraw, Logger: lg})
	h.Start()
	return h
}

// presetNow reads the preset fresh from the settings.
func (c *Core) presetNow(id string) (settings.Preset, bool) {
	all := c.store.Get()
	return all.Preset(id)
}

// endpoint is where preset id connects (backend.Endpoint).
func (c *Core) endpoint(id string) string {
	p, ok := c.presetNow(id)
	if !ok {
		return ""
	}
	return backend.Endpoint(p, c.demoURL(), c.available)
}

// available reports whether this build runs chat_api.
func (c *Core) available(chatAPI string) bool { return slices.Contains(AvailableChatAPIs, chatAPI) }
