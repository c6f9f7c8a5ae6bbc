// Command yui is the Yui desktop pet. One binary, several processes:
//
//	yui [run] [flags]                          the core: settings, sockets, windows, tray
//	                                           (a second launch hands its flags to the running core)
//	yui --settings | --quit | --version
//	yui window --role pet --preset ID --core URL   one pet window (started by the core)
//	yui window --role settings --core URL          the settings window (started by the core)
//	yui window --role message --preset ID --core URL   a character's message window (started by the core)
//	yui demo-backend --addr 127.0.0.1:8646 --key-file FILE   the demo push backend alone
//	yui console [--json] ...                   the same core in a terminal
//	yui version
//
// See README.md and docs/ for the architecture.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"yui/app/applog"
	"yui/app/autostart"
	"yui/app/console"
	"yui/app/core"
	"yui/app/core/desktop"
	"yui/app/core/windows"
	"yui/app/demobackend"
	"yui/app/i18n"
	"yui/app/instance"
	"yui/app/listen"
	"yui/app/parentconsole"
	"yui/app/settings"
	"yui/app/shell"
	"yui/app/tray"
	"yui/app/version"
	"yui/app/voice"
	"yui/app/x11"
)

//go:embed all:frontend/dist
var dist embed.FS

// The tray's icon: a PNG for Linux hosts, an ICO for Windows (both made
// from build/appicon.png by make icons).
var (
	//go:embed build/linux/icons/hicolor/64x64/apps/yui.png
	trayPNG []byte
	//go:embed build/windows/icon.ico
	trayICO []byte
)

// processStart is when this process started, near enough (package
// initialisation): a window logs its start-up steps as time since then.
var processStart = time.Now()

func main() {
	if shell.BindingsOnly {
		if err := shell.GenerateBindings(pages()); err != nil {
			fmt.Fprintln(os.Stderr, "yui: bindings:", err)
			os.Exit(1)
		}
		return
	}
	args := os.Args[1:]
	cmd := "run"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if cmd != "window" {
		parentconsole.Attach() // Windows: print in the terminal that started us
	}
	// The X library prints notes (no ~/.Xauthority) on the terminal; the
	// core and window processes route them to their log below.
	x11.RouteLibraryLog(slog.New(slog.DiscardHandler))
	var err error
	switch cmd {
	case "run":
		err = runCore(args)
	case "window":
		err = runWindow(args)
	case "demo-backend":
		os.Exit(demobackend.Main(args, os.Stdout, os.Stderr))
	case "console":
		os.Exit(console.Main(args, os.Stdin, os.Stdout, os.Stderr))
	case "version":
		fmt.Println("yui", version.String())
	default:
		err = fmt.Errorf("unknown command %q (want run, window, console, demo-backend or version)", cmd)
	}
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "yui:", err)
		os.Exit(1)
	}
}

func pages() fs.FS {
	sub, err := fs.Sub(dist, "frontend/dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}

func defaultConfigDir() string {
	d, err := settings.DefaultDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "yui-config")
	}
	return d
}

func openLog(dir string, level slog.Level) (*slog.Logger, io.Closer) {
	f := applog.NewDailyFile(dir, applog.AppLogPrefix, nil)
	lg := applog.New(f, level)
	return lg, closerFunc(func() error {
		applog.Flush(lg) // what was folded last gets its log_folded line
		return f.Close()
	})
}

type closerFunc func() error

func (c closerFunc) Close() error { return c() }

// coreFlags are the core's flags; a hand-over parses the second launch's
// arguments with the same set.
type coreFlags struct {
	configDir, logDir, demoAddr                       *string
	noWindows, traceView, debug, demo, settings, quit *bool
	showVersion, noSound                              *bool
	demoDelay, settingsIdle                           *time.Duration
}

func newCoreFlags() (*flag.FlagSet, coreFlags) {
	fl := flag.NewFlagSet("yui", flag.ContinueOnError)
	return fl, coreFlags{
		configDir:   fl.String("config-dir", defaultConfigDir(), "directory holding settings.json (one Yui runs per config dir)"),
		logDir:      fl.String("log-dir", applog.DefaultDir(), "directory for the daily app log"),
		noWindows:   fl.Bool("no-windows", false, "run the core only; load pages in a browser from the printed pages_url"),
		traceView:   fl.Bool("trace-view", false, "print core_ready and every received view message as JSON lines on stdout"),
		debug:       fl.Bool("debug", false, "log debug lines"),
		demo:        fl.Bool("demo", true, "run the embedded demo backend for presets that use it"),
		demoAddr:    fl.String("demo-addr", "", "where the embedded demo backend listens (default: the demo preset's address, 127.0.0.1:8646)"),
		demoDelay:   fl.Duration("demo-delegation-delay", 0, "how long the demo backend's delegated tasks run (0: its default)"),
		settings:    fl.Bool("settings", false, "open the settings window (of the running Yui, if one runs)"),
		quit:        fl.Bool("quit", false, "quit the running Yui and wait until it has exited"),
		showVersion: fl.Bool("version", false, "print the version and exit"),
		noSound:     fl.Bool("no-sound", false, "run without a sound output: voices keep silent timing"),
		settingsIdle: fl.Duration("settings-idle-exit", core.DefaultSettingsIdleExit,
			"how long the settings window stays loaded while hidden before its process ends (negative: never)"),
	}
}

func runCore(args []string) error {
	fl, f := newCoreFlags()
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *f.showVersion {
		fmt.Println("yui", version.String())
		return nil
	}
	if *f.quit {
		return quitRunning(*f.configDir)
	}
	level := slog.LevelInfo
	if *f.debug {
		level = slog.LevelDebug
	}
	prim, err := becomeCore(*f.configDir, args)
	if err != nil || prim == nil {
		return err // nil: handed over to the running core
	}
	// Last: the lock goes when everything is written, and a waiting
	// `yui --quit` returns.
	defer prim.Close()
	lg, closer := openLog(*f.logDir, level)
	defer closer.Close()
	lg = lg.With("proc", "core")
	x11.RouteLibraryLog(lg)
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own binary: %w", err)
	}
	opts := core.Options{ConfigDir: *f.configDir, LogDir: *f.logDir, Exe: exe, NoWindows: *f.noWindows, Pages: pages(), Logger: lg,
		Demo: *f.demo, DemoAddr: *f.demoAddr, DemoDelegationDelay: *f.demoDelay, OpenSettings: *f.settings,
		SettingsIdleExit: *f.settingsIdle}
	if *f.traceView || *f.noWindows {
		opts.Trace = os.Stdout
	}
	if as, err := autostart.New(exe, nil, ""); err != nil {
		lg.Warn("autostart_unavailable", "err", err.Error())
	} else {
		opts.Autostart = as
	}
	if !*f.noSound {
		opts.Sound = voice.SystemOutput(lg)
		opts.Input = listen.SystemInput(lg)
	}
	c, err := core.New(opts)
	if err != nil {
		return err
	}
	lg.Info("core_start", "version", version.String(), "pid", os.Getpid(), "instance", prim.Addr())
	prim.Serve(handOver(c), lg)
	// SIGHUP: the session (terminal or X) ended.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	ran := make(chan struct{})
	if t := startTray(c, lg, ran); t != nil {
		defer t.Close()
	}
	err = c.Run(ctx)
	close(ran)
	return err
}

// startTray shows the tray icon with the core's menu and keeps it in step
// with the core. Without one (no session bus; logged once) the pet's menu
// has every item. ran closes when the core's Run has returned.
func startTray(c *core.Core, lg *slog.Logger, ran <-chan struct{}) *tray.Tray {
	desk := c.Desktop()
	icon := trayPNG
	if runtime.GOOS == "windows" {
		icon = trayICO
	}
	t, err := tray.Start(tray.Options{
		Icon: icon, Title: "Yui", Menu: trayMenu(desk.State()), Logger: lg,
		Strings: tray.StringsFor(c.Settings().Get().UILanguage(i18n.SystemLocale())),
		Actions: tray.Actions{
			SetShown:        desk.SetShown,
			SetVoicesMuted:  func(on bool) { c.Voices().SetMuted(on) },
			SetQuiet:        func(on bool) { c.Companion().SetQuiet(on) },
			OpenSettings:    c.OpenSettingsWindow,
			ResetPositions:  desk.ResetPositions,
			SetStartAtLogin: func(on bool) { desk.SetStartAtLogin(on) },
			Quit:            desk.Quit,
			Listen:          c.Ear().ListenOnce,
		},
		// Windows waits for this before ending the session.
		SessionEnd: func() { desk.Quit(); <-ran },
		// The autostart entry may have changed in the desktop's settings.
		OnOpen: desk.Changed,
	})
	if err != nil {
		lg.Info("tray_unavailable", "err", err.Error())
		return nil
	}
	desk.OnChange(func(s desktop.State) { t.Update(trayMenu(s)) })
	return t
}

func trayMenu(s desktop.State) tray.Menu {
	m := tray.Menu{VoicesMuted: s.VoicesMuted, Quiet: s.Quiet, StartAtLogin: s.StartAtLogin, StartAtLoginAvailable: s.StartAtLoginAvailable}
	for _, ch := range s.Characters {
		m.Characters = append(m.Characters, tray.Character{ID: ch.ID, Name: ch.Name, Shown: ch.Shown})
	}
	return m
}

// becomeCore takes the config dir's instance lock, or hands args to the
// core holding it (then it returns nil, nil). A core that exits between
// the two is raced for again.
func becomeCore(dir string, args []string) (*instance.Primary, error) {
	for range 3 {
		prim, err := instance.Acquire(dir)
		if !errors.Is(err, instance.ErrRunning) {
			return prim, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err = instance.Send(ctx, dir, args, false)
		cancel()
		if !errors.Is(err, instance.ErrNotRunning) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("the config dir %s changed hands three times; try again", dir)
}

// quitRunning is `yui --quit`: it asks the running core to quit and waits
// until it has exited.
func quitRunning(dir string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := instance.Send(ctx, dir, []string{"--quit"}, true)
	if errors.Is(err, instance.ErrNotRunning) {
		fmt.Fprintln(os.Stderr, "yui: Yui is not running")
		return nil
	}
	return err
}

// handOver acts on a second launch's arguments: --quit quits, --settings
// opens the settings window, and a plain launch shows the characters and
// opens the settings window (what someone clicking the icon again wants).
func handOver(c *core.Core) instance.Handler {
	return func(r instance.Request) error {
		fl, f := newCoreFlags()
		fl.SetOutput(io.Discard)
		if err := fl.Parse(r.Args); err != nil {
			return err
		}
		switch {
		case *f.quit:
			c.Desktop().Quit()
		case *f.settings:
			c.OpenSettingsWindow()
		default:
			c.Desktop().ShowWindows()
			c.OpenSettingsWindow()
		}
		return nil
	}
}

func runWindow(args []string) error {
	fl := flag.NewFlagSet("yui window", flag.ContinueOnError)
	role := fl.String("role", "pet", "window role: pet, settings or message")
	preset := fl.String("preset", "", "preset id (pet windows)")
	coreURL := fl.String("core", "", "core view URL (ws://127.0.0.1:PORT/view); the token comes in $YUI_CORE_TOKEN")
	logDir := fl.String("log-dir", applog.DefaultDir(), "directory for the daily app log")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *role == shell.RoleBare {
		// The benchmarks' baseline (docs/bench/startup.sh): no core.
		lg, closer := openLog(*logDir, slog.LevelInfo)
		defer closer.Close()
		return shell.RunBare(shell.BareOptions{
			Width: windows.PetWidth, Height: windows.PetHeight, Started: processStart,
			Logger: lg.With("proc", "window", "role", shell.RoleBare),
		})
	}
	token := os.Getenv("YUI_CORE_TOKEN")
	switch {
	case *role != "pet" && *role != "settings" && *role != "message":
		return fmt.Errorf("window: unknown role %q (want pet, settings or message)", *role)
	case *coreURL == "" || token == "":
		return errors.New("window: --core and $YUI_CORE_TOKEN are required")
	case (*role == "pet" || *role == "message") && *preset == "":
		return errors.New("window: a pet window needs --preset")
	case *role == "settings" && *preset != "":
		return errors.New("window: the settings window serves every preset; drop --preset")
	}
	lg, closer := openLog(*logDir, slog.LevelInfo)
	defer closer.Close()
	x11.RouteLibraryLog(lg.With("proc", "window"))
	return shell.Run(shell.Options{
		CoreURL: *coreURL, Token: token, Role: *role, Preset: *preset,
		Assets: pages(), Logger: lg.With("proc", "window", "role", *role, "preset", *preset),
		Started: processStart,
	})
}
