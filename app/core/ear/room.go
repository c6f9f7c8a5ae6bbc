package ear

import (
	"log/slog"
	"math"
	"sync"
	"time"

	"yui/app/audio"
	"yui/app/listen"
	"yui/app/settings"
	"yui/app/view"
)

// Store is the settings file.
type Store interface {
	Get() settings.Settings
	Update(func(*settings.Settings)) error
}

// Pages is the view server.
type Pages interface {
	Publish(preset, topic string, m view.Message)
	PublishSettings(topic string, m view.Message)
	Send(role, preset string, m view.Message)
}

// Character is one running character as the ear sees her.
type Character interface {
	// ID is her preset's id.
	ID() string
	// Speaking reports whether her voice is heard at now, and since when
	// her current sentence plays.
	Speaking(now time.Time) (bool, time.Time)
	// SendSpoken sends a transcript as her spoken turn.
	SendSpoken(text string)
	// BargeIn stops what she is saying (the user talks over her).
	BargeIn()
}

// Host is what the room asks of the core.
type Host interface {
	// Character is preset id's running character (nil: none).
	Character(id string) Character
	// Characters are the running characters, in no order.
	Characters() []Character
}

// Config makes a Room.
type Config struct {
	Store Store
	Pages Pages
	Host  Host
	// Input is the microphone; nil runs without one (listening says so).
	Input  audio.Input
	Logger *slog.Logger
}

// Room is the ear. New makes it closed: Apply opens the microphone when
// listening is on.
type Room struct {
	cfg Config
	log *slog.Logger
	l   *listen.Listener

	mu     sync.Mutex
	state  listen.State
	pubSeq uint64 // PublishSettings calls; only the latest publishes
}

// New makes the room; nothing listens until Apply.
func New(cfg Config) *Room {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	r := &Room{cfg: cfg, log: cfg.Logger}
	r.l = listen.New(listen.Options{
		Input:       cfg.Input,
		Transcriber: listen.EndpointFromSettings(transcribeListen(cfg.Store.Get())),
		Send:        r.sendSpoken,
		BargeIn:     r.bargeIn,
		Speaking:    r.speakingNow,
		OnState:     r.onState,
		OnLevel:     r.onLevel,
		Logger:      cfg.Logger,
	}, listen.Config{})
	return r
}

// Apply gives the listener the saved settings (at Run, and every save).
func (r *Room) Apply() {
	l := r.cfg.Store.Get().Listen
	r.l.SetTranscriber(listen.EndpointFromSettings(transcribeListen(r.cfg.Store.Get())))
	r.l.SetConfig(listen.FromSettings(l))
	r.Publish()
}

// Close closes the microphone for good.
func (r *Room) Close() { r.l.Close() }

// ListenOnce is the tray's "Listen": the next utterance becomes a spoken
// turn, without always-on listening. Safe from any goroutine.
func (r *Room) ListenOnce() { r.l.ListenOnce() }

// target is the character spoken turns go to: the one the settings name
// when she runs, else the main character.
func (r *Room) target() Character {
	all := r.cfg.Store.Get()
	if t := all.Listen.Target; t != "" {
		if c := r.cfg.Host.Character(t); c != nil {
			return c
		}
	}
	return r.cfg.Host.Character(all.ActivePreset)
}

func (r *Room) sendSpoken(text string) {
	c := r.target()
	if c == nil {
		r.log.Warn("listen_no_character")
		return
	}
	c.SendSpoken(text)
}

// speakingNow is whether any character is heard now, and since when the
// most recent sentence of those heard plays.
func (r *Room) speakingNow(now time.Time) (bool, time.Time) {
	any := false
	var since time.Time
	for _, c := range r.cfg.Host.Characters() {
		if ok, s := c.Speaking(now); ok {
			any = true
			if s.After(since) {
				since = s
			}
		}
	}
	return any, since
}

// bargeIn stops the characters heard now.
func (r *Room) bargeIn() {
	now := time.Now()
	for _, c := range r.cfg.Host.Characters() {
		if ok, _ := c.Speaking(now); ok {
			c.BargeIn()
		}
	}
}

func (r *Room) onState(st listen.State) {
	r.mu.Lock()
	r.state = st
	r.mu.Unlock()
	r.Publish()
}

// Publish tells every pet page the pill's voice segment.
func (r *Room) Publish() {
	for _, c := range r.cfg.Host.Characters() {
		r.PublishTo(c.ID())
	}
}

// PublishTo tells preset id's pet page the pill's voice segment. The
// state is read and published under the room's lock, so two goroutines
// reporting states cannot publish them out of order (the page keeps the
// last one).
func (r *Room) PublishTo(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := r.state
	if st.Mode == "" {
		st.Mode = listen.ModeOff
	}
	all := r.cfg.Store.Get()
	target := all.Listen.Target
	if p, ok := all.Preset(target); !ok || !p.Enabled {
		target = all.ActivePreset
	}
	r.cfg.Pages.Publish(id, view.TypeListen, view.MustEncode(view.TypeListen, view.ListenState{Mode: st.Mode, Error: st.Error,
		Fix: st.Fix, Open: st.Open, PushToTalkKey: all.Listen.PushToTalk(), Target: id == target}))
}

// dbScale maps dBFS to the meter's 0–100 (−80 dBFS to 0).
func dbScale(db float64) int {
	return int(math.Round(math.Max(0, math.Min(100, (db+80)*100/80))))
}

func (r *Room) onLevel(lv listen.Level) {
	r.cfg.Pages.Send(view.RoleSettings, "", view.MustEncode(view.TypeListenLevel,
		view.ListenLevel{Level: dbScale(lv.DB), Floor: dbScale(lv.Floor), Threshold: dbScale(lv.Threshold)}))
}

// Saved applies a settings save that changed the Listening section (the
// form's one Save carries it; settingsui merges it).
func (r *Room) Saved() {
	l := r.cfg.Store.Get().Listen
	r.log.Info("listen_settings_saved", "on", l.On, "barge_in", l.BargeIn, "sensitivity", l.SensitivityPercent(), "has_key", l.Key != "")
	r.Apply()
	r.PublishSettings()
}
