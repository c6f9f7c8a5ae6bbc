package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"yui/app/applog"
	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
	"yui/transport/push"
)

// FirstConnectWait is the longest the console waits for its first
// connection attempt to settle before reading stdin (the spec's hello
// reply wait plus a little).
const FirstConnectWait = 12 * time.Second

// Log file prefixes in the log directory.
const (
	AppLogPrefix  = "yui"
	TurnLogPrefix = "yui-turns"
)

// Run runs the console until /quit, the end of stdin (after the running
// turns end and playback finishes) or ctx ending. It returns nil on /quit
// and at the end of input.
func Run(ctx context.Context, o Options, stdin io.Reader, stdout io.Writer) error {
	if o.Now == nil {
		o.Now = time.Now
	}
	dir, err := configDir(o.ConfigDir)
	if err != nil {
		return err
	}
	store, rep, err := settings.Open(dir)
	if err != nil {
		return fmt.Errorf("console: open settings in %s: %w", dir, err)
	}
	preset, err := pickPreset(store.Get(), o.Preset)
	if err != nil {
		return err
	}
	if o.URL != "" {
		preset.ChatBaseURL = o.URL
	}
	if o.Key != "" {
		preset.Key = o.Key
	}
	logDir := o.LogDir
	if logDir == "" {
		logDir = applog.DefaultDir()
	}
	appFile := applog.NewDailyFile(logDir, AppLogPrefix, nil)
	turnFile := applog.NewDailyFile(logDir, TurnLogPrefix, nil)
	defer appFile.Close()
	defer turnFile.Close()
	appLog := applog.New(appFile, slog.LevelInfo).With("preset", preset.ID)
	rep.Log(appLog, store.Path())
	if rep.Problem != nil {
		appLog.Warn("settings_problem", "err", rep.Problem.Error(), "kept_as", rep.KeptAs)
	}

	out := &printer{w: stdout, json: o.JSON, now: o.Now}
	// The first connection attempt settles (ready, refused, or retrying)
	// before stdin is read, so `echo hi | yui console` does not send its
	// line into a socket that is still opening.
	settled := make(chan struct{})
	var settleOnce sync.Once
	onEvent := func(e session.Event) {
		if e.Kind == session.KindSocket && e.State != "connecting" && e.State != "disconnected" {
			settleOnce.Do(func() { close(settled) })
		}
		out.event(e)
	}
	eyes := newEyes(store, preset, o.Screen, o.Windows, out, appLog)
	s, err := session.New(session.Options{
		Preset:     preset,
		ConfigDir:  dir,
		Voice:      playback.Silent{CharsPerSecond: o.SpeechRate},
		Tools:      []push.Tool{eyes.tool},
		Screenshot: eyes.screenshot,
		HTTPClient: o.HTTPClient,
		Logger:     appLog,
		TurnLog:    applog.New(turnFile, slog.LevelInfo).With("preset", preset.ID),
		OnEvent:    onEvent,
		Now:        o.Now,
	})
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	defer s.Close()
	s.Start()
	if preset.ChatBaseURL != "" {
		t := time.NewTimer(FirstConnectWait)
		select {
		case <-settled:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	return loop(ctx, s, eyes, out, stdin)
}

// loop feeds stdin lines to the session.
func loop(ctx context.Context, s *session.Session, eyes *eyes, out *printer, stdin io.Reader) error {
	lines := make(chan string)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64*1024), push.MaxFrameBytes)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-done:
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("console: %w", ctx.Err())
		case line, ok := <-lines:
			if !ok {
				if err := s.Drain(ctx); err != nil {
					return fmt.Errorf("console: end of input: %w", err)
				}
				return nil
			}
			if quit := apply(s, eyes, out, line); quit {
				return nil
			}
		}
	}
}

// apply runs one stdin line; it reports /quit.
func apply(s *session.Session, eyes *eyes, out *printer, line string) bool {
	c, ok := parseLine(line)
	if !ok {
		out.note("unknown command /" + c.name)
		return false
	}
	switch c.name {
	case "":
		s.SendText(c.arg)
	case "stop":
		s.Stop()
	case "reset":
		s.Reset()
	case "reconnect":
		s.Reconnect()
	case "barge":
		s.BargeIn()
	case "spoken":
		s.SendSpoken(c.arg)
	case "attach":
		if err := s.Attach(c.arg); err != nil {
			out.note(err.Error())
		}
	case "allow":
		if err := eyes.answer(c.arg); err != nil {
			out.note(err.Error())
		}
	case "stats":
		out.stats(readStats())
	case "quit":
		return true
	}
	return false
}

// configDir resolves the --config-dir default.
func configDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("console: no config directory: %w", err)
	}
	return filepath.Join(base, "yui"), nil
}

// pickPreset finds the preset by id or name, or the active one.
func pickPreset(all settings.Settings, want string) (settings.Preset, error) {
	if want == "" {
		want = all.ActivePreset
	}
	for _, p := range all.Presets {
		if p.ID == want {
			return p, nil
		}
	}
	for _, p := range all.Presets {
		if p.Name == want {
			return p, nil
		}
	}
	return settings.Preset{}, errors.New("console: no preset " + fmt.Sprintf("%q", want) + " in the settings")
}
