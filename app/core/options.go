package core

import (
	"io"
	"io/fs"
	"log/slog"
	"time"

	"yui/app/audio"
	"yui/app/capture"
	"yui/app/core/companion"
	"yui/app/core/desktop"
	"yui/app/core/gaze"
	"yui/app/frontmost"
	"yui/app/hotkey"
	"yui/app/look"
	"yui/app/perch"
	"yui/app/supervisor"
	"yui/app/tts"
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

// Presence is the OS's word on the user (companion.Presence).
type Presence = companion.Presence
