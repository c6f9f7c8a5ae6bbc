package settingsui

import (
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"time"

	"yui/app/audio"
	"yui/app/core/looks"
	"yui/app/core/route"
	"yui/app/settings"
	"yui/app/view"
)

// DefaultIdleExit is how long a hidden settings window keeps its process:
// long enough that closing and reopening at once shows the same window,
// short enough that the ≈ 420 MB of a WebKit process go back soon after
// the user is done. A new process paints its form in about a second
// (docs/windows.md).
const DefaultIdleExit = 2 * time.Minute

// ErrQuitting is Host.Save's answer once the core is ending.
var ErrQuitting = errors.New("settingsui: the core is quitting")

// quittingText is what the form is told of a save refused for that.
const quittingText = "Yui is quitting; the settings were not saved"

// Store is the settings file.
type Store interface {
	Get() settings.Settings
	Path() string
}

// Pages is the view server.
type Pages interface {
	PublishSettings(topic string, m view.Message)
	Send(role, preset string, m view.Message)
}

// Host is what the room asks of the core.
type Host interface {
	// Save runs change on the saved settings (Store.Change) and, when it
	// is written, brings the running characters, voices, shortcut and
	// tray in line; before is the settings the change was given. It
	// returns ErrQuitting once the core is ending.
	Save(change func(*settings.Settings) error) (before, after settings.Settings, err error)
	// ShowWindow starts the settings window's process, or shows the
	// running one; nothing without window processes or before Run.
	ShowWindow()
	// EndWindow ends the window's process (after it was hidden long
	// enough).
	EndWindow()
	// Hidden is told the user closed (hid) the window.
	Hidden()
	// Opened is told the window was opened (the Listening section looks
	// at the microphones again).
	Opened()
	// ShortcutNote says why the global shortcut does not work ("").
	ShortcutNote() string
	// StoredHistory reads preset id's delegation history from disk (a
	// switched-off preset has no session to report it).
	StoredHistory(id string) []view.DelegationItem
	// DemoURL is where the embedded demo backend listens ("" none).
	DemoURL() string
}

// Config makes a Room.
type Config struct {
	Store Store
	Pages Pages
	Host  Host
	Looks looks.Catalog
	// Available reports whether this build runs chat_api.
	Available func(chatAPI string) bool
	// Sound is the sound output the Voice section lists; nil: no sound.
	Sound audio.Output
	// IdleExit is how long the window may stay hidden before its process
	// ends; 0 is DefaultIdleExit, negative keeps it forever.
	IdleExit time.Duration
	// Standings lists a character's standings (rate_relation); nil: none.
	Standings func(preset string) []view.Standing
	Logger    *slog.Logger
}

// Room is the settings window's controller.
type Room struct {
	cfg Config
	log *slog.Logger

	mu sync.Mutex
	// idle ends the hidden window's process; nil while shown or not
	// running. idleGen tells a stale timer from the current.
	idle     *time.Timer
	idleGen  uint64
	focusSeq uint64
	revision uint64
	status   map[string]view.PresetStatus
	// history is each preset's delegation history as its session last
	// reported it, or as read from disk for a preset with no session.
	history map[string][]view.DelegationItem
	// notes are what the form says about presets moved to another
	// backend (notes.go).
	notes map[string]backendNote

	sound programs
}

// New makes the room; it publishes nothing until asked.
func New(cfg Config) *Room {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.IdleExit == 0 {
		cfg.IdleExit = DefaultIdleExit
	}
	return &Room{cfg: cfg, log: cfg.Logger, status: map[string]view.PresetStatus{}, history: map[string][]view.DelegationItem{}}
}

// Routes registers what the settings window sends: a save, Test
// connection, its shell's report that it was hidden, and open_settings
// (from any page).
func (r *Room) Routes(t *route.Table) {
	lg := r.log
	t.Add(route.JSON(lg, func(p view.Peer, o view.OpenSettings) { r.Open(p.Preset, o.Section) }), view.TypeOpenSettings)
	t.Add(route.Only(lg, route.Roles(view.RoleSettings), "only the settings window saves settings", r.saveMessage), view.TypeSaveSettings)
	t.Add(route.Only(lg, route.Roles(view.RoleSettings), "only the settings window tests connections",
		route.JSON(lg, func(_ view.Peer, req view.TestConnection) { r.TestConnection(req) })), view.TypeTestConnection)
	t.Add(route.Only(lg, route.SettingsShell, "only the settings window's shell reports hiding",
		func(view.Peer, view.Message) { r.log.Info("settings_hidden"); r.Hidden() }), view.TypeWindowHidden)
}

// saveMessage decodes a save; one that cannot be read is answered (by its
// request id, if that can be read) so the form stops waiting.
func (r *Room) saveMessage(_ view.Peer, m view.Message) {
	var req view.SaveSettings
	if err := json.Unmarshal(m.Body, &req); err != nil {
		r.log.Warn("view_malformed", "type", m.Type, "err", err.Error())
		var id struct {
			RequestID any `json:"request_id"`
		}
		json.Unmarshal(m.Body, &id)
		rid, _ := id.RequestID.(string)
		r.answer(view.SettingsResult{RequestID: rid, OK: false, Error: "the form sent something unreadable: " + err.Error()})
		return
	}
	r.Save(req)
}

func (r *Room) answer(res view.SettingsResult) {
	r.cfg.Pages.Send(view.RoleSettings, "", view.MustEncode(view.TypeSettingsResult, res))
}

// Open shows the settings window on preset id at section. The window
// process starts on first use (under a second to first paint); later
// opens show the hidden window at once. Without window processes
// (--no-windows) only the focus is published, for a page a browser loaded.
func (r *Room) Open(id, section string) {
	switch section {
	case "", view.SectionCharacter, view.SectionBackend, view.SectionVoice, view.SectionPermissions, view.SectionSession, view.SectionListen:
	default:
		r.log.Warn("view_malformed", "type", view.TypeOpenSettings, "section", section)
		section = ""
	}
	r.mu.Lock()
	r.stopIdleLocked()
	r.focusSeq++
	f := view.SettingsFocus{Seq: r.focusSeq, Preset: id, Section: section}
	r.mu.Unlock()
	r.cfg.Pages.PublishSettings(view.TypeSettingsFocus, view.MustEncode(view.TypeSettingsFocus, f))
	r.log.Info("settings_open", "preset", id, "section", section)
	// The devices may have changed (headphones plugged in) since the last
	// look.
	r.PublishAudio()
	r.cfg.Host.Opened()
	r.cfg.Host.ShowWindow()
}

// Hidden is the settings shell's report that the user closed (hid) the
// window: after IdleExit hidden its process ends; the next open starts a
// new one.
func (r *Room) Hidden() {
	r.cfg.Host.Hidden()
	wait := r.cfg.IdleExit
	if wait < 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopIdleLocked()
	gen := r.idleGen
	r.idle = time.AfterFunc(wait, func() {
		r.mu.Lock()
		if r.idleGen != gen {
			r.mu.Unlock()
			return // shown again meanwhile
		}
		r.idle = nil
		r.mu.Unlock()
		r.log.Info("settings_idle_exit", "hidden_for_ms", wait.Milliseconds())
		r.cfg.Host.EndWindow()
	})
}

// stopIdleLocked disarms the idle exit. Call with mu held.
func (r *Room) stopIdleLocked() {
	r.idleGen++
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
}

// idleArmed reports whether the idle exit is armed (tests).
func (r *Room) idleArmed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.idle != nil
}
