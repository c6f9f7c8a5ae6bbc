// Command yui is the Yui desktop pet. One binary, several processes:
//
//	yui [run] [flags]                          the core: settings, sockets, windows
//	yui window --role pet --preset ID --core URL   one pet window (started by the core)
//	yui window --role settings --core URL          the settings window (started by the core)
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
	"syscall"

	"yui/app/applog"
	"yui/app/console"
	"yui/app/core"
	"yui/app/demobackend"
	"yui/app/shell"
)

//go:embed all:frontend/dist
var dist embed.FS

// version is set by the build (-ldflags "-X main.version=...").
var version = "dev"

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
		fmt.Println("yui", version)
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
	d, err := os.UserConfigDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "yui-config")
	}
	return filepath.Join(d, "yui")
}

func openLog(dir string, level slog.Level) (*slog.Logger, io.Closer) {
	f := applog.NewDailyFile(dir, "yui", nil)
	return applog.New(f, level), f
}

func runCore(args []string) error {
	fl := flag.NewFlagSet("yui", flag.ContinueOnError)
	configDir := fl.String("config-dir", defaultConfigDir(), "directory holding settings.json")
	logDir := fl.String("log-dir", applog.DefaultDir(), "directory for the daily app log")
	noWindows := fl.Bool("no-windows", false, "run the core only; load pages in a browser from the printed pages_url")
	traceView := fl.Bool("trace-view", false, "print core_ready and every received view message as JSON lines on stdout")
	debug := fl.Bool("debug", false, "log debug lines")
	demo := fl.Bool("demo", true, "run the embedded demo backend for presets that use it")
	demoAddr := fl.String("demo-addr", "", "where the embedded demo backend listens (default: the demo preset's address, 127.0.0.1:8646)")
	demoDelay := fl.Duration("demo-delegation-delay", 0, "how long the demo backend's delegated tasks run (0: its default)")
	openSettings := fl.Bool("settings", false, "open the settings window at start")
	if err := fl.Parse(args); err != nil {
		return err
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	lg, closer := openLog(*logDir, level)
	defer closer.Close()
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own binary: %w", err)
	}
	opts := core.Options{ConfigDir: *configDir, LogDir: *logDir, Exe: exe, NoWindows: *noWindows, Pages: pages(), Logger: lg.With("proc", "core"),
		Demo: *demo, DemoAddr: *demoAddr, DemoDelegationDelay: *demoDelay, OpenSettings: *openSettings}
	if *traceView || *noWindows {
		opts.Trace = os.Stdout
	}
	c, err := core.New(opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return c.Run(ctx)
}

func runWindow(args []string) error {
	fl := flag.NewFlagSet("yui window", flag.ContinueOnError)
	role := fl.String("role", "pet", "window role: pet or settings")
	preset := fl.String("preset", "", "preset id (pet windows)")
	coreURL := fl.String("core", "", "core view URL (ws://127.0.0.1:PORT/view); the token comes in $YUI_CORE_TOKEN")
	logDir := fl.String("log-dir", applog.DefaultDir(), "directory for the daily app log")
	if err := fl.Parse(args); err != nil {
		return err
	}
	token := os.Getenv("YUI_CORE_TOKEN")
	switch {
	case *role != "pet" && *role != "settings":
		return fmt.Errorf("window: unknown role %q (want pet or settings)", *role)
	case *coreURL == "" || token == "":
		return errors.New("window: --core and $YUI_CORE_TOKEN are required")
	case *role == "pet" && *preset == "":
		return errors.New("window: a pet window needs --preset")
	case *role == "settings" && *preset != "":
		return errors.New("window: the settings window serves every preset; drop --preset")
	}
	lg, closer := openLog(*logDir, slog.LevelInfo)
	defer closer.Close()
	return shell.Run(shell.Options{
		CoreURL: *coreURL, Token: token, Role: *role, Preset: *preset,
		Assets: pages(), Logger: lg.With("proc", "window", "role", *role, "preset", *preset),
	})
}
