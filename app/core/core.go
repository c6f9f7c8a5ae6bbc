package core

import (
	"fmt"
	"log/slog"
	"sync"

	"yui/app/applog"
	"yui/app/core/among"
	"yui/app/core/cast"
	"yui/app/core/companion"
	"yui/app/core/desktop"
	"yui/app/core/ear"
	"yui/app/core/gaze"
	"yui/app/core/life"
	"yui/app/core/looks"
	"yui/app/core/mindui"
	"yui/app/core/petview"
	"yui/app/core/route"
	"yui/app/core/settingsui"
	"yui/app/core/standings"
	"yui/app/core/voices"
	"yui/app/core/wardrobe"
	"yui/app/core/windows"
	"yui/app/frontmost"
	"yui/app/memory"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
	"yui/app/voice"
)

// Core is one running core. Create it with New, then Run it.
type Core struct {
	opts    Options
	log     *slog.Logger
	store   *settings.Store
	view    *view.Server
	sup     *supervisor.Supervisor
	wins    *windows.Windows // the windows' processes, tokens and configs
	turnLog *applog.DailyFile
	front   *frontmost.Tracker
	turns   *slog.Logger   // the turn log, one line per turn event
	mute    *voice.Mute    // the global mute every voice watches
	voices  *voices.Room   // the mutes, applied to every voice
	ear     *ear.Room      // the microphone, shared by every character
	mem     *memory.Stores // the characters' memories
	mind    *mindui.Room   // the settings window's "What she remembers"

	// pets are the running characters, started once Run has started the
	// sessions (and windows). They change when settings are saved; changes
	// are serialized by applyMu.
	pets cast.Set[*pet]
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

	rel     *standings.Room // the standings (rate_relation)
	talk    *among.Room     // characters talking to each other
	gazeMu  sync.Mutex
	gaze    *gaze.Keeper  // set by Run; nil before, or without a pointer source
	desk    *desktop.Room // hidden characters, quit, autostart, the shortcut, placement
	life    *life.Room    // her body on the desktop: body_action, perches, drags, bed
	routes  *route.Table  // what the windows send, by message type
	tip     *petview.Tip  // the first-run tip
	petHost petview.Cast  // what each character's view asks of the core
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
	opts = opts.system(lg)
	c := &Core{opts: opts, log: lg, store: store, mute: &voice.Mute{}}
	c.front = frontmost.New(opts.Windows, nil, lg)
	rep.Log(lg, store.Path())
	switch {
	case rep.Created:
		lg.Info("settings_created", "path", store.Path())
	case rep.Problem != nil:
		lg.Error("settings_bad", "path", store.Path(), "problem", rep.Problem.Error(), "kept_as", rep.KeptAs)
	}
	// The view server serves its HTTP routes from Run's Listen; the rooms
	// add theirs (rooms.go).
	httpRoutes := map[string]view.Route{}
	c.view = view.NewServer(view.Config{
		Pages:     opts.Pages,
		Logger:    lg,
		OnMessage: c.onMessage,
		OnConnect: func(p view.Peer) { c.wins.OnConnect(p) },
		Routes:    httpRoutes,
	})
	c.sup = supervisor.New(opts.Launch, lg)
	if opts.LogDir != "" {
		c.turnLog = applog.NewDailyFile(opts.LogDir, applog.TurnLogPrefix, nil)
		c.turns = applog.New(c.turnLog, slog.LevelInfo)
	} else {
		c.turns = slog.New(slog.DiscardHandler)
	}
	c.newRooms(httpRoutes)
	all := store.Get()
	for _, p := range all.Presets {
		if !p.Enabled {
			continue
		}
		pt, err := c.newPet(p, p.ID == all.ActivePreset)
		if err != nil {
			c.closePets()
			return nil, err
		}
		c.pets.Put(p.ID, pt)
		c.publishPet(p, pt, rep)
	}
	// The settings window's states (publishRooms) are published by Run,
	// after it has started the pet windows: listing the system voices
	// runs programs (≈ 20 ms) that a pet window need not wait for.
	return c, nil
}

// publishRooms publishes the settings window's first states (what it
// shows, the history, audio, memories, listening); nothing reads them
// before Run listens.
func (c *Core) publishRooms() {
	c.sui.PublishState()
	c.sui.PublishHistory()
	c.sui.PublishAudio()
	c.mind.Publish()
	c.ear.PublishSettings()
}

// Settings returns the settings store.
func (c *Core) Settings() *settings.Store { return c.store }
