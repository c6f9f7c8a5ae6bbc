package tray

import (
	"errors"
	"log/slog"
	"slices"
	"sync"

	"fyne.io/systray"

	"yui/app/i18n"
)

// Menu is what the tray shows.
type Menu struct {
	Characters            []Character
	VoicesMuted           bool
	Quiet                 bool // the quiet companion for every character
	StartAtLogin          bool
	StartAtLoginAvailable bool
}

// Character is one character's entry.
type Character struct {
	ID, Name string
	Shown    bool
}

// Actions are what the items do. Nil funcs leave their items inert.
type Actions struct {
	SetShown       func(id string, shown bool)
	SetVoicesMuted func(on bool)
	// SetQuiet switches the quiet companion (nobody speaks first).
	SetQuiet     func(on bool)
	OpenSettings func()
	// ResetPositions puts every character back at the bottom-right of the
	// primary monitor, side by side.
	ResetPositions  func()
	SetStartAtLogin func(on bool)
	Quit            func()
	// Listen hears the next thing the user says (one utterance, then the
	// microphone closes); nil leaves the item out.
	Listen func()
}

// Options configure Start.
type Options struct {
	// Icon is a PNG on Linux (made opaque-or-clear per pixel: see
	// opaqueOrClear), an ICO on Windows.
	Icon []byte
	// Title names the item ("Yui"); it is also the tooltip.
	Title   string
	Menu    Menu
	Actions Actions
	// Strings are the items' labels and tooltips; zero is English
	// (StringsFor).
	Strings Strings
	// SessionEnd runs when the OS session ends (Windows); it must return
	// only when the app has saved what it must. Nil does nothing.
	SessionEnd func()
	// OnOpen runs when a host opens the menu (Linux hosts that send
	// dbusmenu's "opened" event for the root), for state that may have
	// changed outside the app (the autostart entry). Nil does nothing.
	OnOpen func()
	Logger *slog.Logger
}

// ErrNoSessionBus: Linux without a D-Bus session bus has no tray.
var ErrNoSessionBus = errors.New("tray: no D-Bus session bus")

// started guards the library's process-wide state: one successful Start
// per process.
var started struct {
	sync.Mutex
	done bool
}

// Tray is the running tray icon.
type Tray struct {
	opts Options
	log  *slog.Logger
	str  Strings // opts.Strings, or English

	mu      sync.Mutex
	closed  bool
	built   bool // the initial menu is built (items below exist)
	menu    Menu
	chars   []*systray.MenuItem // in menu.Characters' order
	mute    *systray.MenuItem
	quiet   *systray.MenuItem
	login   *systray.MenuItem
	ready   chan struct{}
	stopped chan struct{}
	end     func() // ends the library's loop (set by start)
}

// Start shows the tray icon with opts.Menu. It returns at once; the menu
// is built on the tray's goroutine. See the package doc for ErrNoSessionBus
// and the one-tray-per-process rule (a Start that failed does not count).
func Start(opts Options) (*Tray, error) {
	lg := opts.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	opts.Menu.Characters = slices.Clone(opts.Menu.Characters)
	t := &Tray{opts: opts, log: lg, str: opts.Strings, menu: opts.Menu, ready: make(chan struct{}), stopped: make(chan struct{})}
	if t.str == (Strings{}) {
		t.str = StringsFor(i18n.English)
	}
	started.Lock()
	defer started.Unlock()
	if started.done {
		return nil, errors.New("tray: a tray already ran in this process")
	}
	if err := t.start(); err != nil {
		return nil, err
	}
	started.done = true
	return t, nil
}

// onReady builds the initial menu (on the library's ready goroutine).
func (t *Tray) onReady() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.closed {
		t.build()
	}
	close(t.ready)
}

// build adds every item for t.menu; call with t.mu held.
func (t *Tray) build() {
	t.chars = nil
	for _, c := range t.menu.Characters {
		it := systray.AddMenuItemCheckbox(c.Name, t.str.showHide(c.Name), c.Shown)
		t.chars = append(t.chars, it)
		go t.listen(it, func() { t.toggleCharacter(it) })
	}
	if len(t.menu.Characters) > 0 {
		systray.AddSeparator()
	}
	if t.opts.Actions.Listen != nil {
		listen := systray.AddMenuItem(t.str.Listen, t.str.ListenTip)
		go t.listen(listen, func() {
			t.log.Info("tray_click", "item", "listen")
			call(t.opts.Actions.Listen)
		})
	}
	t.mute = systray.AddMenuItemCheckbox(t.str.Mute, t.str.MuteTip, t.menu.VoicesMuted)
	go t.listen(t.mute, t.toggleMute)
	t.quiet = systray.AddMenuItemCheckbox(t.str.Quiet, t.str.QuietTip, t.menu.Quiet)
	go t.listen(t.quiet, t.toggleQuiet)
	settings := systray.AddMenuItem(t.str.Settings, t.str.SettingsTip)
	go t.listen(settings, func() { call(t.opts.Actions.OpenSettings) })
	reset := systray.AddMenuItem(t.str.Reset, t.str.ResetTip)
	go t.listen(reset, func() { call(t.opts.Actions.ResetPositions) })
	t.login = nil
	if t.menu.StartAtLoginAvailable {
		t.login = systray.AddMenuItemCheckbox(t.str.Login, t.str.LoginTip, t.menu.StartAtLogin)
		go t.listen(t.login, t.toggleLogin)
	}
	systray.AddSeparator()
	quit := systray.AddMenuItem(t.str.Quit, t.str.QuitTip)
	go t.listen(quit, func() { call(t.opts.Actions.Quit) })
	t.built = true
}

// listen runs fn for each click on it until the item is removed.
func (t *Tray) listen(it *systray.MenuItem, fn func()) {
	for range it.ClickedCh {
		fn()
	}
}

func call(fn func()) {
	if fn != nil {
		fn()
	}
}

func (t *Tray) toggleCharacter(it *systray.MenuItem) {
	t.mu.Lock()
	i := slices.Index(t.chars, it)
	if i < 0 {
		t.mu.Unlock()
		return
	}
	c := t.menu.Characters[i]
	t.mu.Unlock()
	t.log.Info("tray_click", "item", "character", "preset", c.ID, "show", !c.Shown)
	if f := t.opts.Actions.SetShown; f != nil {
		f(c.ID, !c.Shown)
	}
}

func (t *Tray) toggleMute() {
	t.flip("mute", func(m Menu) bool { return m.VoicesMuted }, t.opts.Actions.SetVoicesMuted)
}

func (t *Tray) toggleQuiet() {
	t.flip("quiet", func(m Menu) bool { return m.Quiet }, t.opts.Actions.SetQuiet)
}

func (t *Tray) toggleLogin() {
	t.flip("start_at_login", func(m Menu) bool { return m.StartAtLogin }, t.opts.Actions.SetStartAtLogin)
}

// flip answers a click on a switch item: the switch's state in the menu
// as last shown (read by state), turned over, is logged and passed to set
// (nil: nothing is called).
func (t *Tray) flip(item string, state func(Menu) bool, set func(on bool)) {
	t.mu.Lock()
	on := !state(t.menu)
	t.mu.Unlock()
	t.log.Info("tray_click", "item", item, "on", on)
	if set != nil {
		set(on)
	}
}

// menu is rebuilt when the characters (their ids or order) or the
// availability of Start at login changed.
func (t *Tray) Update(m Menu) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	old := t.menu
	m.Characters = slices.Clone(m.Characters) // the caller may reuse its slice
	t.menu = m
	if !t.built {
		return // onReady builds from t.menu
	}
	if !sameIDs(old.Characters, m.Characters) || old.StartAtLoginAvailable != m.StartAtLoginAvailable {
		systray.ResetMenu()
		t.build()
		return
	}
	for i, c := range m.Characters {
		if c.Name != old.Characters[i].Name {
			t.chars[i].SetTitle(c.Name)
			t.chars[i].SetTooltip(t.str.showHide(c.Name))
		}
		if c.Shown != old.Characters[i].Shown {
			check(t.chars[i], c.Shown)
		}
	}
	if m.VoicesMuted != old.VoicesMuted {
		check(t.mute, m.VoicesMuted)
	}
	if m.Quiet != old.Quiet {
		check(t.quiet, m.Quiet)
	}
	if t.login != nil && m.StartAtLogin != old.StartAtLogin {
		check(t.login, m.StartAtLogin)
	}
}

func check(it *systray.MenuItem, on bool) {
	if on {
		it.Check()
	} else {
		it.Uncheck()
	}
}

func sameIDs(a, b []Character) bool {
	return slices.EqualFunc(a, b, func(x, y Character) bool { return x.ID == y.ID })
}

// Close removes the icon. Safe to call more than once.
func (t *Tray) Close() error {
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return nil
	}
	t.closed = true
	t.mu.Unlock()
	t.stop()
	t.log.Info("tray_stopped")
	return nil
}
