package desktop

import (
	"fmt"
	"log/slog"
	"sync"

	"yui/app/capture"
	"yui/app/hotkey"
	"yui/app/look"
	"yui/app/settings"
	"yui/app/supervisor"
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
	Send(role, preset string, m view.Message)
	Disconnect(role, preset string)
}

// Windows runs the window processes (the supervisor).
type Windows interface {
	Run(spec supervisor.Spec) bool
	Revive(name string) bool
	StopOne(name string)
}

// Host is what the room asks of the core.
type Host interface {
	// HasPet reports whether preset id's character runs (enabled, with a
	// session).
	HasPet(id string) bool
	// PetIDs are the running characters, in no order.
	PetIDs() []string
	// PetSpec is the process of preset p's pet window.
	PetSpec(p settings.Preset) supervisor.Spec
	// Hold runs fn while no settings save or shutdown changes the
	// characters; windows is false when window processes do not run now
	// (--no-windows, before Run has started them, while quitting).
	Hold(fn func(windows bool))
	// SetMuted switches the global mute (saved, every voice told).
	SetMuted(on bool) error
	// Changed is told after every change Changed publishes (a character
	// hidden or shown, a settings save); it must not block.
	Changed()
}

// Autostart is the OS's "start at login" record (app/autostart). The
// room keeps no copy of the choice: the tray and the pet menu show what
// Enabled reports.
type Autostart interface {
	Enabled() (bool, error)
	Set(on bool) error
}

// Config makes a Room.
type Config struct {
	Store   Store
	Pages   Pages
	Windows Windows
	Host    Host
	// Screen lists the monitors (placement).
	Screen capture.Source
	// Autostart is the OS's entry; nil leaves the item out of the menus.
	Autostart Autostart
	// Hotkeys grabs the global shortcut; nil grabs none.
	Hotkeys hotkey.Grabber
	// WindowList lists the desktop's windows: where the settings window is
	// now (placement); nil is the X server's (look.X11Windows).
	WindowList look.Windows
	Logger     *slog.Logger
}

// Room is the desktop room. Create it with New.
type Room struct {
	cfg Config
	log *slog.Logger

	mu       sync.Mutex
	hidden   map[string]bool
	onChange func(State)

	quit     chan struct{}
	quitOnce sync.Once

	placeMu  sync.Mutex // serializes placement decisions
	settings settingsWindow
	short    shortcut
}

// New makes the room.
func New(cfg Config) *Room {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.WindowList == nil {
		cfg.WindowList = look.X11Windows{}
	}
	return &Room{cfg: cfg, log: cfg.Logger, hidden: map[string]bool{}, quit: make(chan struct{})}
}

// State is what the tray and the pet menu show.
type State struct {
	// Characters are the enabled presets, in the settings' order.
	Characters []CharacterState
	// VoicesMuted is the saved global mute (settings audio.muted).
	VoicesMuted bool
	// Quiet is the saved quiet companion for everyone (proactive.quiet).
	Quiet bool
	// StartAtLogin is what the OS entry says; StartAtLoginAvailable is
	// false when the room has no Autostart.
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

// OnChange registers fn, called with the new state after every change
// the tray shows (a character hidden or shown, mute, start at login, a
// settings save). fn runs on the goroutine that made the change and must
// not block.
func (r *Room) OnChange(fn func(State)) {
	r.mu.Lock()
	r.onChange = fn
	r.mu.Unlock()
}

// State returns the current state. It reads the OS's autostart entry, so
// a change made outside Yui shows.
func (r *Room) State() State {
	all := r.cfg.Store.Get()
	st := State{VoicesMuted: all.Audio.Muted, Quiet: all.Proactive.Quiet, StartAtLoginAvailable: r.cfg.Autostart != nil}
	if r.cfg.Autostart != nil {
		on, err := r.cfg.Autostart.Enabled()
		if err != nil {
			r.log.Warn("autostart_unreadable", "err", err.Error())
		}
		st.StartAtLogin = on
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, p := range all.Presets {
		if p.Enabled {
			st.Characters = append(st.Characters, CharacterState{ID: p.ID, Name: p.Name, Shown: !r.hidden[p.ID]})
		}
	}
	return st
}

// Hidden reports whether the user hid preset id's character.
func (r *Room) Hidden(id string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hidden[id]
}

// Changed tells the tray and every pet page the new state. A character
// switched off in the settings is no longer hidden: switched on again,
// she shows.
func (r *Room) Changed() {
	all := r.cfg.Store.Get()
	r.mu.Lock()
	for id := range r.hidden {
		if p, ok := all.Preset(id); !ok || !p.Enabled {
			delete(r.hidden, id)
		}
	}
	r.mu.Unlock()
	st := r.State()
	for _, ch := range st.Characters {
		r.publish(ch.ID, st)
	}
	r.mu.Lock()
	fn := r.onChange
	r.mu.Unlock()
	r.cfg.Host.Changed()
	if fn != nil {
		fn(st)
	}
}

// Publish sets preset's pet page's desktop menu topic.
func (r *Room) Publish(preset string) { r.publish(preset, r.State()) }

func (r *Room) publish(preset string, st State) {
	r.cfg.Pages.Publish(preset, view.TypeDesktop, view.MustEncode(view.TypeDesktop, view.Desktop{
		VoicesMuted: st.VoicesMuted, StartAtLogin: st.StartAtLogin, StartAtLoginAvailable: st.StartAtLoginAvailable}))
}

// SetStartAtLogin writes or removes the OS's autostart entry.
func (r *Room) SetStartAtLogin(on bool) error {
	if r.cfg.Autostart == nil {
		return fmt.Errorf("desktop: start at login: not available")
	}
	err := r.cfg.Autostart.Set(on)
	if err != nil {
		r.log.Error("autostart_failed", "on", on, "err", err.Error())
	} else {
		r.log.Info("autostart_set", "on", on)
	}
	r.Changed()
	if err != nil {
		return fmt.Errorf("desktop: start at login: %w", err)
	}
	return nil
}

// Quit asks the core to end as its context ending does. Safe to call
// more than once, from any goroutine.
func (r *Room) Quit() {
	r.quitOnce.Do(func() {
		r.log.Info("quit_requested")
		close(r.quit)
	})
}

// Quitting is closed once Quit was called.
func (r *Room) Quitting() <-chan struct{} { return r.quit }
