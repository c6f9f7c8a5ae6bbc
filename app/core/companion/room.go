package companion

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"yui/app/clientctx"
	"yui/app/core/route"
	"yui/app/proactive"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/view"
)

// Character is one enabled character as the room sees her.
type Character struct {
	ID       string
	Hidden   bool // her window is hidden
	Muted    bool // her voice is muted, alone or with every voice
	TellsApp bool // "Tell the agent which app I'm using" is on for her
}

// Host is what the room asks of the core.
type Host interface {
	// Characters are the enabled characters, the main one first.
	Characters() []Character
	// StartTurn starts a turn of character id with an empty utterance and
	// trigger.
	StartTurn(id string, trigger clientctx.Trigger)
	// QuietChanged is told the quiet switches changed (the tray's and the
	// pet menus' checks, the settings window's state).
	QuietChanged()
}

// Store is the settings the room reads and saves.
type Store interface {
	Get() settings.Settings
	Update(func(*settings.Settings)) error
}

// Pages is the view server.
type Pages interface {
	Publish(preset, topic string, m view.Message)
}

// Config configures the room.
type Config struct {
	Store Store
	Pages Pages
	Host  Host
	// Input and Screen are the OS's sources (app/presence, the frontmost
	// tracker); nil Input is unknown input.
	Input  proactive.Input
	Screen proactive.Screen
	// Now is the clock (nil: time.Now). Tests pass proactive.Scaled to
	// compress a day; every duration in the settings is then in its time.
	Now func() time.Time
	// Every is the real time between two ticks (0: proactive.TickEvery
	// divided by Scale).
	Every time.Duration
	// Scale is the clock's speed-up, for Every's default (0 or 1: none).
	Scale  float64
	Logger *slog.Logger
}

// Room is the companion room. Its methods may be called from any goroutine.
type Room struct {
	cfg Config
	log *slog.Logger
	eng *proactive.Engine

	mu       sync.Mutex
	speaking map[string]bool
	running  map[string]bool
	ready    map[string]bool // her connection is ready
}

// New makes the room; Run starts its engine.
func New(cfg Config) *Room {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Every <= 0 {
		cfg.Every = proactive.TickEvery
		if cfg.Scale > 1 {
			cfg.Every = time.Duration(float64(proactive.TickEvery) / cfg.Scale)
		}
	}
	r := &Room{cfg: cfg, log: cfg.Logger, speaking: map[string]bool{}, running: map[string]bool{},
		ready: map[string]bool{}}
	r.eng = proactive.New(proactive.ConfigFrom(cfg.Store.Get().Proactive),
		proactive.Sources{Input: cfg.Input, Screen: cfg.Screen, Cast: cast{r}}, cfg.Logger)
	return r
}

// Run ticks the engine until ctx ends.
func (r *Room) Run(ctx context.Context) {
	r.eng.Run(ctx, r.cfg.Now, r.cfg.Every, func(f proactive.Fire) {
		r.cfg.Host.StartTurn(f.Target, f.Trigger())
	})
}

// Apply takes the saved settings (a save from the settings window) and
// tells the pet pages the quiet switches.
func (r *Room) Apply() {
	r.eng.SetConfig(proactive.ConfigFrom(r.cfg.Store.Get().Proactive))
	r.PublishAll()
}

// OnEvent follows character id's session: a turn the user typed or spoke
// starts a new gap; speech and running turns hold her back; a turn's or
// a sentence's end starts the quiet gap.
func (r *Room) OnEvent(id string, e session.Event) {
	now := r.cfg.Now()
	switch e := e.(type) {
	case session.Socket:
		r.set(r.ready, id, e.State == "ready")
	case session.TurnSent:
		if e.Text != "" {
			r.eng.UserTalked(now)
		}
	case session.SpeechStart:
		r.set(r.speaking, id, true)
	case session.SpeechEnd:
		r.set(r.speaking, id, false)
		r.eng.TurnEnded(now)
	case session.Composer:
		r.set(r.running, id, e.Locked)
		if !e.Locked {
			r.eng.TurnEnded(now)
		}
	}
}

// Forget drops character id's state (she was removed or disabled).
func (r *Room) Forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.speaking, id)
	delete(r.running, id)
	delete(r.ready, id)
}

func (r *Room) set(m map[string]bool, id string, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m[id] = on
}

func (r *Room) any(m map[string]bool) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, on := range m {
		if on {
			return true
		}
	}
	return false
}

// Quiet reports the global quiet companion switch.
func (r *Room) Quiet() bool { return r.cfg.Store.Get().Proactive.Quiet }

// SetQuiet switches the quiet companion for every character and saves it.
func (r *Room) SetQuiet(on bool) error {
	if err := r.cfg.Store.Update(func(s *settings.Settings) { s.Proactive.Quiet = on }); err != nil {
		return fmt.Errorf("companion: quiet: %w", err)
	}
	r.Apply()
	r.log.Info("quiet_companion", "scope", view.QuietAll, "quiet", on)
	r.cfg.Host.QuietChanged()
	return nil
}

// SetCharacterQuiet switches character id's own quiet companion and saves it.
func (r *Room) SetCharacterQuiet(id string, on bool) error {
	found := false
	err := r.cfg.Store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].Quiet, found = on, true
			}
		}
	})
	if err != nil {
		return fmt.Errorf("companion: quiet %s: %w", id, err)
	}
	if !found {
		return fmt.Errorf("companion: quiet: no preset %s", id)
	}
	r.log.Info("quiet_companion", "scope", view.QuietCharacter, "preset", id, "quiet", on)
	r.PublishTo(id)
	r.cfg.Host.QuietChanged()
	return nil
}

// PublishTo tells character id's pet page the quiet switches (its menu's
// checks).
func (r *Room) PublishTo(id string) {
	s := r.cfg.Store.Get()
	p, _ := s.Preset(id)
	r.cfg.Pages.Publish(id, view.TypeCompanion, view.MustEncode(view.TypeCompanion,
		view.Companion{Quiet: p.Quiet, GlobalQuiet: s.Proactive.Quiet}))
}

// PublishAll tells every enabled character's page.
func (r *Room) PublishAll() {
	for _, ch := range r.cfg.Host.Characters() {
		r.PublishTo(ch.ID)
	}
}

// Routes registers the pet menu's quiet companion items.
func (r *Room) Routes(t *route.Table) {
	t.Add(route.Only(r.log, route.Roles(view.RolePet, view.RoleSettings), "the pet menu and the settings window switch it",
		route.JSON(r.log, func(p view.Peer, m view.Quiet) { r.fromPage(p.Preset, m) })), view.TypeQuiet)
}

func (r *Room) fromPage(preset string, m view.Quiet) {
	var err error
	switch {
	case m.Scope == view.QuietAll:
		err = r.SetQuiet(m.Quiet)
	case m.Scope == view.QuietCharacter && m.Preset != "":
		err = r.SetCharacterQuiet(m.Preset, m.Quiet)
	case m.Scope == view.QuietCharacter && preset != "":
		err = r.SetCharacterQuiet(preset, m.Quiet)
	default:
		r.log.Warn("view_malformed", "type", view.TypeQuiet, "scope", m.Scope)
		return
	}
	if err != nil {
		r.log.Error("settings_save_failed", "err", err.Error())
	}
}

// cast is the engine's view of the characters.
type cast struct{ r *Room }

func (c cast) Speaking() bool    { return c.r.any(c.r.speaking) }
func (c cast) TurnRunning() bool { return c.r.any(c.r.running) }

// Target is the main character unless she is quiet, else the next who is
// not; none when the global switch is on.
func (c cast) Target() (proactive.Target, bool) {
	s := c.r.cfg.Store.Get()
	if s.Proactive.Quiet {
		return proactive.Target{}, false
	}
	for _, ch := range c.r.cfg.Host.Characters() {
		if p, ok := s.Preset(ch.ID); ok && !p.Quiet {
			c.r.mu.Lock()
			offline := !c.r.ready[ch.ID]
			c.r.mu.Unlock()
			return proactive.Target{ID: ch.ID, Hidden: ch.Hidden, Muted: ch.Muted, TellsApp: ch.TellsApp, Offline: offline}, true
		}
	}
	return proactive.Target{}, false
}
