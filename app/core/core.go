package core

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"maps"
	"sync"
	"sync/atomic"
	"time"
	"yui/app/core/among"
	"yui/app/core/archive"
	"yui/app/relation"

	"yui/app/applog"
	"yui/app/audio"
	"yui/app/capture"
	"yui/app/core/companion"
	"yui/app/core/desktop"
	"yui/app/core/ear"
	"yui/app/core/gaze"
	"yui/app/core/life"
	"yui/app/core/looks"
	"yui/app/core/mindui"
	"yui/app/core/route"
	"yui/app/core/settingsui"
	"yui/app/core/voices"
	"yui/app/core/wardrobe"
	"yui/app/core/windows"
	"yui/app/cue"
	"yui/app/frontmost"
	"yui/app/hotkey"
	"yui/app/i18n"
	"yui/app/look"
	"yui/app/perch"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/tts"
	"yui/app/view"
	"yui/app/voice"
)

// Options configure a core run.
type Options struct {
	// ConfigDir holds settings.json (and, later, histories).
	ConfigDir string
	// Exe is the binary window processes are started from (normally
	// os.Executable()).
	Exe string
	// LogDir is handed to the window processes.
	LogDir string
	// NoWindows runs the core without starting window processes: pages
	// are loaded by a browser from the view server (tests, development).
	NoWindows bool
	// Pages are the built web UI, served by the view server.
	Pages fs.FS
	// Logger is the app logger.
	Logger *slog.Logger
	// Trace, when set, receives one JSON line per view message the core
	// receives ({"event":"view_in","role":…,"preset":…,"message":…}) and
	// one "core_ready" line with the view URL and token. Tests and
	// `yui --trace-view` use it; it is never the log file.
	Trace io.Writer
	// Launch starts window processes; nil means supervisor.Exec.
	Launch supervisor.Launcher
	// Demo runs the embedded demo backend in-process when an enabled
	// preset points at settings.DemoBaseURL.
	Demo bool
	// DemoAddr is where it listens; "" means settings.DemoBaseURL's
	// address. Presets on the demo URL are pointed at wherever it listens,
	// so "127.0.0.1:0" gives tests a private one.
	DemoAddr string
	// DemoDelegationDelay, when positive, is how long the demo's delegated
	// tasks run (tests shorten it).
	DemoDelegationDelay time.Duration
	// OpenSettings opens the settings window (on the main character) once
	// the core runs.
	OpenSettings bool
	// SettingsIdleExit is how long the settings window may stay hidden
	// before its process ends (it holds ≈ 420 MB); 0 is
	// DefaultSettingsIdleExit, negative keeps it forever.
	SettingsIdleExit time.Duration
	// WindowList lists the desktop's top-level windows: where the settings
	// window is now, for a new character to keep clear of (the desktop
	// room); nil is the X server's (look.X11Windows).
	WindowList look.Windows
	// Perches are the windows she can sit on (body_action, perch targets);
	// nil is the system's (perch.System) when the core runs windows and
	// a display is reachable, else none (body_action answers unsupported).
	Perches perch.Desktop
	// Windows reports the user's active window for the context block's
	// frontmost line; nil is the platform's (frontmost.System).
	Windows frontmost.Source
	// Screen lists and captures monitors; nil is the platform's
	// (capture.NewSystem). Captures only ever happen through a permission
	// grant.
	Screen capture.Source
	// Autostart is the OS's start-at-login entry; nil leaves the item out
	// of the menus.
	Autostart desktop.Autostart
	// Sound is where voices play (voice.SystemOutput: PulseAudio on
	// Linux, WASAPI on Windows); nil runs without sound: every voice
	// keeps silent timing.
	Sound audio.Output
	// Input is the microphone (listen.SystemInput: PulseAudio on Linux);
	// nil runs without one: listening says so.
	Input audio.Input
	// OnMuteChanged is told when the global mute changes, before the pages
	// are (the pet menu's and the tray's checks also follow
	// OnDesktopChange); nil: nobody.
	OnMuteChanged func(muted bool)
	// Hotkeys grabs the global shortcut; nil is the system's
	// (hotkey.System) when the core runs windows, none without.
	Hotkeys hotkey.Grabber
	// VoiceEngine builds a character's speech engine; nil is the engine
	// its settings name (tests pass a generated-tone engine).
	VoiceEngine func(voice.Config) tts.Engine
	// Presence is the user's input idle, typing and fullscreen for the
	// proactive turns; nil is the system's (app/presence) when the core
	// runs windows, unknown without.
	Presence Presence
	// Pointer is the desktop's pointer, which a VRM look's eyes and head
	// follow while it is near her; nil is the system's (gaze.System: X11
	// raw motion) when the core runs windows, none without.
	Pointer gaze.Source
	// ProactiveScale, above 1, runs the proactive clock that many times
	// faster (test only: an e2e test makes a check-in happen in seconds).
	ProactiveScale float64
}

// Core is one running core. Create it with New, then Run it.
type Core struct {
	opts    Options
	log     *slog.Logger
	store   *settings.Store
	view    *view.Server
	sup     *supervisor.Supervisor
	wins    *windows.Windows // the windows' processes, tokens and configs
	turnLog *applog.DailyFile
	screen  capture.Source
	front   *frontmost.Tracker
	turns   *slog.Logger // the turn log, one line per turn event
	mute    *voice.Mute  // the global mute every voice watches
	voices  *voices.Room // the mutes, applied to every voice
	ear     *ear.Room    // the microphone, shared by every character
	mem     *memories    // the characters' memories (memory.go)
	mind    *mindui.Room // the settings window's "What she remembers"

	// petsMu guards pets and started. Pets change when settings are saved
	// (apply.go); changes are serialized by applyMu.
	petsMu  sync.Mutex
	pets    map[string]*pet
	started bool // Run has started the sessions (and windows)
	// applyMu serializes settings saves against Run's start and stop;
	// stopping (guarded by it) refuses saves once Run is ending.
	applyMu  sync.Mutex
	stopping bool

	sui      *settingsui.Room // the settings window
	looks    looks.Catalog    // the built-in looks and the look folders
	wardrobe *wardrobe.Room   // the VRM look's files, import, options, touches
	// companion: proactive turns and the quiet companion switch
	companion *companion.Room

	traceMu sync.Mutex

	demoMu sync.Mutex
	demoAt string

	rel    *relation.Store // the standings (rate_relation)
	talk   *among.Room     // characters talking to each other
	gazeMu sync.Mutex
	gaze   *gaze.Keeper  // set by Run; nil before, or without a pointer source
	desk   *desktop.Room // hidden characters, quit, autostart, the shortcut, placement
	life   *life.Room    // her body on the desktop: body_action, perches, drags, bed
	routes *route.Table  // what the windows send, by message type
	// tip is the preset whose page shows the first-run tip ("" none).
	tip atomic.Value
}

// New loads the settings and prepares the view server; nothing listens yet.
func New(opts Options) (*Core, error) {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	store, rep, err := settings.Open(opts.ConfigDir)
	if err != nil {
		return nil, fmt.Errorf("core: %w", err)
	}
	c := &Core{opts: opts, log: lg, store: store, screen: opts.Screen, mute: &voice.Mute{}}
	c.tip.Store("")
	c.mem = &memories{dir: opts.ConfigDir, log: lg}
	if c.screen == nil {
		c.screen = capture.NewSystem(lg)
	}
	active := opts.Windows
	if active == nil {
		active = frontmost.System()
	}
	c.front = frontmost.New(active, nil, lg)
	rep.Log(lg, store.Path())
	switch {
	case rep.Created:
		lg.Info("settings_created", "path", store.Path())
	case rep.Problem != nil:
		lg.Error("settings_bad", "path", store.Path(), "problem", rep.Problem.Error(), "kept_as", rep.KeptAs)
	}
	// The view server serves its HTTP routes from Run's Listen; the rooms
	// add theirs below.
	httpRoutes := map[string]view.Route{}
	c.view = view.NewServer(view.Config{
		Pages:     opts.Pages,
		Logger:    lg,
		OnMessage: c.onMessage,
		OnConnect: func(p view.Peer) { c.wins.OnConnect(p) },
		Routes:    httpRoutes,
	})
	c.routes = route.New(lg)
	c.addRoutes(c.routes)
	c.sup = supervisor.New(opts.Launch, lg)
	c.wins = windows.New(windows.Config{Server: c.view, Supervisor: c.sup, Host: winHost{c}, Exe: opts.Exe, LogDir: opts.LogDir, Logger: lg,
		Language: func() string { return string(store.Get().UILanguage(i18n.SystemLocale())) }})
	keys := opts.Hotkeys
	if keys == nil && !opts.NoWindows {
		keys = hotkey.System()
	}
	c.desk = desktop.New(desktop.Config{Store: store, Pages: c.view, Windows: c.sup, Host: deskHost{c},
		Screen: c.screen, Autostart: opts.Autostart, Hotkeys: keys, WindowList: opts.WindowList, Logger: lg})
	c.desk.Routes(c.routes)
	c.life = newLife(c, opts, lg)
	c.life.Routes(c.routes)
	c.ear = ear.New(ear.Config{Store: store, Pages: c.view, Host: earHost{c}, Input: opts.Input, Logger: lg})
	c.ear.Routes(c.routes)
	vocab, verr := cue.FromPages(opts.Pages)
	if verr != nil {
		lg.Warn("vocabulary_default", "reason", verr.Error())
	}
	motions, merr := looks.VRMMotionsFromPages(opts.Pages)
	if merr != nil {
		lg.Warn("vocabulary_default", "reason", merr.Error())
	}
	c.looks = looks.Catalog{ConfigDir: opts.ConfigDir, Log: lg, Base: vocab, Motions: motions}
	c.wardrobe = wardrobe.New(wardrobe.Config{Store: store, Pages: c.view, Host: wardrobeHost{c}, Looks: c.looks,
		ConfigDir: opts.ConfigDir, Logger: lg})
	c.wardrobe.Routes(c.routes)
	maps.Copy(httpRoutes, c.wardrobe.HTTPRoutes())
	c.sui = settingsui.New(settingsui.Config{Store: store, Pages: c.view, Host: settingsHost{c}, Looks: c.looks,
		Available: c.available, Sound: opts.Sound, Standings: c.standings,
		IdleExit: opts.SettingsIdleExit, Logger: lg})
	c.sui.Routes(c.routes)
	c.mind = mindui.New(mindui.Config{Store: store, Pages: c.view, Host: mindHost{c}, Logger: lg})
	c.mind.Routes(c.routes)
	c.mem.changed = c.mind.Publish
	c.pets = map[string]*pet{}
	if opts.LogDir != "" {
		c.turnLog = applog.NewDailyFile(opts.LogDir, applog.TurnLogPrefix, nil)
		c.turns = applog.New(c.turnLog, slog.LevelInfo)
	} else {
		c.turns = slog.New(slog.DiscardHandler)
	}
	c.voices = voices.New(store, c.mute, voicesHost{c}, lg)
	c.voices.Routes(c.routes)
	c.companion = c.newCompanion()
	c.companion.Routes(c.routes)
	c.newAmong()
	archive.New(archiveHost{c}, c.view, lg, nil).Routes(c.routes)
	all := store.Get()
	for _, p := range all.Presets {
		if !p.Enabled {
			continue
		}
		pt, err := c.newPet(p, p.ID == all.ActivePreset, c.looks.Vocabulary(p.Look), c.turns)
		if err != nil {
			c.closePets()
			return nil, err
		}
		c.pets[p.ID] = pt
		c.publishInitial(p, rep)
		pt.view.PublishAll()
		c.ear.PublishTo(pt.preset)
		c.companion.PublishTo(pt.preset)
	}
	c.sui.PublishState()
	c.sui.PublishHistory()
	c.sui.PublishAudio()
	c.mind.Publish()
	c.ear.PublishSettings()
	return c, nil
}

// pet returns the running pet of preset id, or nil.
func (c *Core) pet(id string) *pet {
	c.petsMu.Lock()
	defer c.petsMu.Unlock()
	return c.pets[id]
}

// petIDs are the preset ids of the running pets, in no order.
func (c *Core) petIDs() []string {
	c.petsMu.Lock()
	defer c.petsMu.Unlock()
	ids := make([]string, 0, len(c.pets))
	for id := range c.pets {
		ids = append(ids, id)
	}
	return ids
}

// each is every running pet as a T (the view a room has of her), in no
// order.
func each[T any](c *Core) []T {
	c.petsMu.Lock()
	defer c.petsMu.Unlock()
	out := make([]T, 0, len(c.pets))
	for _, pt := range c.pets {
		out = append(out, any(pt).(T))
	}
	return out
}

func (c *Core) closePets() {
	c.petsMu.Lock()
	pets := c.pets
	c.pets = map[string]*pet{}
	c.petsMu.Unlock()
	for _, pt := range pets {
		pt.close()
	}
}

func (c *Core) demoURL() string {
	c.demoMu.Lock()
	defer c.demoMu.Unlock()
	return c.demoAt
}

// Settings returns the settings store.
func (c *Core) Settings() *settings.Store { return c.store }

// Run serves the view protocol, starts the pet windows, and blocks until
// ctx ends or Quit is called; then it closes every window and returns nil.
func (c *Core) Run(ctx context.Context) error {
	if err := c.view.Listen(); err != nil {
		return fmt.Errorf("core: %w", err)
	}
	if c.opts.Demo {
		c.startDemo(ctx)
	}
	go c.front.Run(ctx)
	life, endLife := context.WithCancel(ctx)
	defer endLife()
	go c.runCompanion(life)
	c.applyMu.Lock()
	c.petsMu.Lock()
	c.started = true
	for _, pt := range c.pets {
		pt.sess.Start()
	}
	c.petsMu.Unlock()
	c.log.Info("core_ready", "view", c.view.URL())
	c.trace(map[string]any{"event": "core_ready", "view_url": c.view.URL(), "pages_url": "http://" + c.view.Addr() + "/",
		"page_tokens": c.wins.PageTokens(c.petIDs()), "demo_url": c.demoURL()})
	if !c.opts.NoWindows {
		for _, p := range c.store.Get().Presets {
			if p.Enabled && !c.desk.Hidden(p.ID) {
				c.sup.Run(c.wins.PetSpec(p))
			}
		}
	}
	c.applyMu.Unlock()
	c.startGaze(ctx)
	c.desk.ApplyShortcut(true)
	if c.desk.ShortcutNote() != "" {
		c.sui.PublishState() // the settings window says why
	}
	// The microphone opens now if listening is on (never before Run).
	c.ear.Apply()
	if c.opts.OpenSettings {
		c.OpenSettingsWindow()
	}
	select {
	case <-ctx.Done():
	case <-c.desk.Quitting():
	}
	c.log.Info("core_stopping")
	endLife() // no proactive turn from here on
	// No settings change starts a pet or window from here on.
	c.applyMu.Lock()
	c.stopping = true
	c.applyMu.Unlock()
	c.petsMu.Lock()
	c.started = false
	c.petsMu.Unlock()
	c.desk.ApplyShortcut(false)
	// The supervisor stops first (it restarts no window from here on);
	// closing the view server then ends every shell connection, a window
	// process exits when its connection ends, and the supervisor reaps
	// it (and terminates any that linger).
	c.ear.Close()
	reaped := make(chan struct{})
	go func() {
		c.sup.Stop()
		close(reaped)
	}()
	c.view.Close()
	<-reaped
	c.closePets()
	c.rel.Close()
	if c.opts.Sound != nil {
		c.opts.Sound.Close()
	}
	if c.turnLog != nil {
		c.turnLog.Close()
	}
	c.log.Info("core_stopped")
	return nil
}

func (c *Core) trace(v any) {
	if c.opts.Trace == nil {
		return
	}
	b, _ := json.Marshal(v)
	c.traceMu.Lock()
	c.opts.Trace.Write(append(b, '\n'))
	c.traceMu.Unlock()
}
