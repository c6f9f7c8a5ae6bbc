package core

import (
	"image"
	"maps"
	"os"

	"yui/app/core/among"
	"yui/app/core/archive"
	"yui/app/core/ear"
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
	"yui/app/cue"
	"yui/app/delegation"
	"yui/app/i18n"
	"yui/app/memory"
	"yui/app/view"
)

// newRooms builds the rooms, each on the narrow parts it needs, and
// registers what each owns of the windows' messages (c.routes) and the
// view server's HTTP routes.
func (c *Core) newRooms(httpRoutes map[string]view.Route) {
	opts, lg, store := c.opts, c.log, c.store
	c.routes = route.New(lg)
	c.tip = petview.NewTip(c.view)
	c.addRoutes(c.routes)
	c.wins = windows.New(windows.Config{Server: c.view, Supervisor: c.sup, Exe: opts.Exe, LogDir: opts.LogDir, Logger: lg,
		Host: windows.Cast{Store: store, Runs: func() bool { return !opts.NoWindows && c.pets.Started() },
			Position:   func(id string) (image.Point, bool) { return c.desk.PetPosition(id) },
			SettingsAt: func(size image.Point) (image.Point, bool) { return c.desk.SettingsPosition(size) },
			OnSettings: func(at image.Point, ok bool) { c.desk.SettingsOpened(at, ok) }, Transcript: c.sendTranscript},
		Language: func() string { return string(store.Get().UILanguage(i18n.SystemLocale())) }})
	c.wins.Routes(c.routes, func(id string) bool { return c.pet(id) != nil })
	c.desk = c.newDesktop()
	c.desk.Routes(c.routes)
	c.life = life.New(life.Config{Pages: c.view, Host: life.Saved{Store: store}, Screen: opts.Screen, Desktop: opts.Perches,
		OwnPIDs: []int{os.Getpid()}, Logger: lg})
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
	c.rel = standings.New(standings.Config{ConfigDir: opts.ConfigDir, Store: store,
		OnChange: func() { c.sui.PublishState() }, Logger: lg})
	c.rel.Routes(c.routes)
	c.sui = settingsui.New(settingsui.Config{Store: store, Pages: c.view, Looks: c.looks, Host: settingsui.Cast{Saver: settingsHost{c}.Save,
		Start: c.wins.OpenSettings, End: c.wins.EndSettings, OnShown: c.desk.SettingsShown, OnHidden: c.desk.SettingsHidden,
		OnOpened: c.ear.PublishSettings, Note: c.desk.ShortcutNote, Demo: c.demoURL,
		Stored: func(id string) []view.DelegationItem { return delegation.Stored(opts.ConfigDir, id, lg) }},
		Available: c.available, Sound: opts.Sound, Standings: c.rel.List,
		IdleExit: opts.SettingsIdleExit, Logger: lg})
	c.sui.Routes(c.routes)
	c.petHost = petview.Cast{Store: store, Where: c.endpoint, Runs: c.available, Muted: c.mute.On,
		Status: c.sui.SetStatus, History: c.sui.SetHistory}
	c.mem = memory.NewStores(opts.ConfigDir, lg, func() { c.mind.Publish() })
	c.mind = mindui.New(mindui.Config{Store: store, Pages: c.view, Host: mindHost{c}, Logger: lg})
	c.mind.Routes(c.routes)
	c.voices = voices.New(store, c.mute, voicesHost{c}, lg)
	c.voices.Routes(c.routes)
	c.companion = c.newCompanion()
	c.companion.Routes(c.routes)
	c.talk = among.New(among.Config{Host: among.Cast{Store: store, Names: c.rel.Names(), Shown: c.shown,
		Turn: c.startTurn, Say: c.say}, Logger: lg})
	archive.New(archive.Cast{History: c.history, Settings: store, ConfigDir: opts.ConfigDir, Logger: lg},
		c.view, lg, nil).Routes(c.routes)
}
