// Package windows is the core's windows as processes: each is the same
// binary with role flags (`yui window --role pet|settings|message`), run
// by the supervisor, its shell admitted by a token of its own that travels
// in the environment (docs/security.md, "Tokens and roles"); the page
// token reaches the shell in its window_config. A pet window per enabled
// character is kept running; the settings window and a message window per
// character start on first use and are hidden (not ended) when closed.
// The message window (docs/message-window.md) mirrors the pet page of its
// preset and shows her transcript; it runs no socket of its own.
//
// The package names the windows and sizes them, builds their processes'
// specs, greets each shell with its window_config, opens a window or
// shows it, and ends a character's windows and grants. Where a window
// opens is the desktop room's (Host).
package windows

import (
	"image"
	"log/slog"
	"strings"

	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

// Pet window size in CSS pixels. The page lays itself out inside it; the
// transparent parts let clicks through.
const (
	PetWidth  = 300
	PetHeight = 420
)

// Settings window size in CSS pixels, and the smallest the form lays out
// in.
const (
	SettingsWidth     = 760
	SettingsHeight    = 560
	SettingsMinWidth  = 600
	SettingsMinHeight = 440
)

// TokenEnv is the environment variable a window process reads its shell
// token from (argv is readable by other local users).
const TokenEnv = "YUI_CORE_TOKEN"

// Settings is the supervisor's name for the settings window.
const Settings = "settings"

// Pet is the supervisor's name of preset id's pet window.
func Pet(id string) string { return "pet:" + id }

// Message is the supervisor's name of preset id's message window.
func Message(id string) string { return "message:" + id }

// Server is the view server's part the windows use.
type Server interface {
	URL() string
	Issue(view.Grant) (string, error)
	Revoke(view.Grant)
	Send(role, preset string, m view.Message)
	Disconnect(role, preset string)
}

// Supervisor runs the window processes.
type Supervisor interface {
	Run(spec supervisor.Spec) bool
	StopOne(name string)
}

// Host is what the windows ask of the core.
type Host interface {
	// Running reports whether window processes run now (not without
	// windows, before Run or while quitting).
	Running() bool
	// Preset is preset id as saved now.
	Preset(id string) (settings.Preset, bool)
	// PetPosition is where preset id's window opens (ok false: the
	// window manager places it).
	PetPosition(id string) (image.Point, bool)
	// SettingsOpened is told the settings window's shell connected (it
	// opens shown) and says where it opens.
	SettingsOpened() (image.Point, bool)
	// MessagePage is told preset id's message page connected (it gets
	// the transcript).
	MessagePage(id string)
}

// Config makes the Windows.
type Config struct {
	Server     Server
	Supervisor Supervisor
	Host       Host
	// Exe is the binary window processes run; LogDir is handed to them.
	Exe, LogDir string
	// Language is the UI language in force (an i18n tag) handed to every
	// window process in LangEnv; nil hands none (the page follows the
	// webview's locale).
	Language func() string
	Logger   *slog.Logger
}

// Windows is the core's windows.
type Windows struct {
	cfg Config
	log *slog.Logger
}

// New makes the Windows.
func New(cfg Config) *Windows {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Windows{cfg: cfg, log: cfg.Logger}
}

// spec is the process of a window of role (of preset; "" for the
// settings window) whose shell holds token. A once window that ends is
// started again on the next request, not by itself.
func (w *Windows) spec(name, role, preset, token string, once bool) supervisor.Spec {
	args := []string{"window", "--role", role}
	if preset != "" {
		args = append(args, "--preset", preset)
	}
	args = append(args, "--core", w.cfg.Server.URL())
	if w.cfg.LogDir != "" {
		args = append(args, "--log-dir", w.cfg.LogDir)
	}
	return supervisor.Spec{Name: name, Path: w.cfg.Exe, Args: args, Env: w.env(token), Once: once}
}

// PetSpec is the process of preset p's pet window.
func (w *Windows) PetSpec(p settings.Preset) supervisor.Spec {
	return w.spec(Pet(p.ID), view.RolePet, p.ID, w.ShellToken(p.ID), false)
}

// SettingsSpec is the settings window's process.
func (w *Windows) SettingsSpec() supervisor.Spec {
	return w.spec(Settings, view.RoleSettings, "", w.ShellToken(""), true)
}

// MessageSpec is the process of preset p's message window.
func (w *Windows) MessageSpec(p settings.Preset) supervisor.Spec {
	return w.spec(Message(p.ID), view.RoleMessage, p.ID, w.issue(view.Grant{Role: view.RoleMessageShell, Preset: p.ID}), true)
}

// open starts the window of spec on first use (it opens shown) or tells
// its running shell (role, preset) to show it (then shown is true);
// nothing while window processes do not run (--no-windows: a browser
// loads the page).
func (w *Windows) open(spec supervisor.Spec, role, preset string) (shown bool) {
	if !w.cfg.Host.Running() {
		return false
	}
	if w.cfg.Supervisor.Run(spec) {
		return false // starting: it opens shown
	}
	w.cfg.Server.Send(role, preset, view.MustEncode(view.TypeWindowShow, struct{}{}))
	return true
}

// OpenSettings starts the settings window, or shows the hidden one (then
// shown is true).
func (w *Windows) OpenSettings() (shown bool) { return w.open(w.SettingsSpec(), view.RoleShell, "") }

// EndSettings ends the hidden settings window's process: the shell quits
// on window_quit; StopOne ends it anyway (after ExitGrace) should it not,
// and an open meanwhile starts a new one.
func (w *Windows) EndSettings() {
	w.cfg.Server.Send(view.RoleShell, "", view.MustEncode(view.TypeWindowQuit, struct{}{}))
	w.cfg.Supervisor.StopOne(Settings)
}

// OpenMessages starts preset p's message window, or shows the hidden one.
func (w *Windows) OpenMessages(p settings.Preset) {
	w.open(w.MessageSpec(p), view.RoleMessageShell, p.ID)
}

// Retitle tells preset p's windows their titles (after a rename; a window
// opened later gets it in its window_config).
func (w *Windows) Retitle(p settings.Preset) {
	w.cfg.Server.Send(view.RoleShell, p.ID, view.MustEncode(view.TypeWindowTitle, view.WindowTitle{Title: PetTitle(p.Name)}))
	w.cfg.Server.Send(view.RoleMessageShell, p.ID, view.MustEncode(view.TypeWindowTitle, view.WindowTitle{Title: messageTitle(p.Name)}))
}

// End ends preset id's windows (a preset removed or switched off): they
// quit when their shell connections end; the supervisor escalates if they
// linger, and does not restart them. Their grants go: the tokens admit
// nobody.
func (w *Windows) End(id string) {
	w.cfg.Supervisor.StopOne(Pet(id))
	w.cfg.Supervisor.StopOne(Message(id))
	w.cfg.Server.Disconnect(view.RoleShell, id)
	w.cfg.Server.Disconnect(view.RoleMessageShell, id)
	for _, role := range []string{view.RoleShell, view.RolePet, view.RoleMessageShell, view.RoleMessage} {
		w.cfg.Server.Revoke(view.Grant{Role: role, Preset: id})
	}
}

// OnConnect greets a shell with its window configuration, and tells Host
// of a message page.
func (w *Windows) OnConnect(peer view.Peer) {
	var cfg view.WindowConfig
	switch {
	case peer.Role == view.RoleMessage:
		w.cfg.Host.MessagePage(peer.Preset)
		return
	case peer.Role == view.RoleShell && peer.Preset == "":
		cfg = view.WindowConfig{Kind: view.WindowSettings, Title: SettingsTitle, Width: SettingsWidth, Height: SettingsHeight,
			MinWidth: SettingsMinWidth, MinHeight: SettingsMinHeight, PageToken: w.PageToken("")}
		if at, ok := w.cfg.Host.SettingsOpened(); ok {
			cfg.X, cfg.Y = &at.X, &at.Y
		}
	case peer.Role == view.RoleShell, peer.Role == view.RoleMessageShell:
		p, ok := w.cfg.Host.Preset(peer.Preset)
		if !ok {
			w.log.Warn("view_unknown_preset", "preset", peer.Preset)
			return
		}
		cfg = w.config(peer.Role, p)
	default:
		return
	}
	w.cfg.Server.Send(peer.Role, peer.Preset, view.MustEncode(view.TypeWindowConfig, cfg))
}

// config is the window_config of preset p's pet shell or message shell.
// Every title starts like every Yui window's (look.OwnTitlePrefix), so
// perch targets and the frontmost line leave them out.
func (w *Windows) config(role string, p settings.Preset) view.WindowConfig {
	if role == view.RoleMessageShell {
		return view.WindowConfig{Kind: view.WindowMessage, Title: messageTitle(p.Name), Width: view.MessageWidth, Height: view.MessageHeight,
			MinWidth: view.MessageMinWidth, MinHeight: view.MessageMinHeight, PageToken: w.MessagePageToken(p.ID)}
	}
	cfg := view.WindowConfig{Kind: view.WindowPet, Title: PetTitle(p.Name), Width: PetWidth, Height: PetHeight, PageToken: w.PageToken(p.ID)}
	if at, ok := w.cfg.Host.PetPosition(p.ID); ok {
		cfg.X, cfg.Y = &at.X, &at.Y
	}
	return cfg
}

// SettingsTitle is the settings window's title.
const SettingsTitle = appName + " — Settings"

// appName starts every Yui window's title (look.OwnTitlePrefix).
const appName = "Yui"

// PetTitle is a pet window's title.
func PetTitle(name string) string { return appName + " — " + name }

// messageTitle is a message window's title, "Yui — Mio — Messages"; a
// character named as the app gets "Yui — Messages", not "Yui — Yui —
// Messages" (issue 21).
func messageTitle(name string) string {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, appName) {
		return appName + " — Messages"
	}
	return appName + " — " + name + " — Messages"
}
