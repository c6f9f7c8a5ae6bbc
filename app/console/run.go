package console

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"yui/app/applog"
	"yui/app/capture"
	"yui/app/cue"
	"yui/app/i18n"
	"yui/app/listen"
	"yui/app/look"
	"yui/app/memory"
	"yui/app/permission"
	"yui/app/pet"
	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/voice"
)

// FirstConnectWait is the longest the console waits for its first
// connection attempt to settle before reading stdin (the spec's hello
// reply wait plus a little).
const FirstConnectWait = 12 * time.Second

// MaxLine bounds one stdin line (the push spec's text frame size).
const MaxLine = 256 << 10

// Log file prefixes in the log directory.
const (
	AppLogPrefix  = applog.AppLogPrefix
	TurnLogPrefix = applog.TurnLogPrefix
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
	saved := preset // as the settings hold it
	applyFlags(&preset, o)
	logDir := o.LogDir
	if logDir == "" {
		logDir = applog.DefaultDir()
	}
	appFile := applog.NewDailyFile(logDir, AppLogPrefix, nil)
	turnFile := applog.NewDailyFile(logDir, TurnLogPrefix, nil)
	defer appFile.Close()
	defer turnFile.Close()
	appLog := applog.New(appFile, slog.LevelInfo).With("preset", preset.ID)
	defer applog.Flush(appLog)
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
		if s, ok := e.(session.Socket); ok && s.State != "connecting" && s.State != "disconnected" {
			settleOnce.Do(func() { close(settled) })
		}
		out.event(e)
	}
	screen, windows := o.Screen, o.Windows
	if screen == nil && os.Getenv("DISPLAY") != "" {
		screen = capture.NewX11(appLog)
		if windows == nil {
			windows = look.X11Windows{}
		}
	}
	var v playback.Voice = playback.Silent{CharsPerSecond: o.SpeechRate}
	vocab := cue.Default()
	heard := &listen.Heard{}
	if o.Voice {
		sp, close := consoleVoice(o, store.Get().Audio, preset, appLog, func(m voice.Mouth) {
			heard.Sound(m.At, time.Duration(len(m.Levels))*m.Step, m.First)
		})
		defer close()
		v, vocab = sp, voice.FromSettings(preset, store.Get().Audio).Vocabulary(vocab)
	}
	// Her memory on a request wire, as the app keeps it (docs/memory.md).
	mem, merr := memory.Open(memory.Path(dir, preset.ID), appLog, nil)
	if merr != nil {
		out.note("her memory could not be read and is not saved this run: " + merr.Error())
	}
	ch, err := pet.New(pet.Config{
		Preset:   preset,
		Language: store.Get().SpokenLanguage(preset, i18n.SystemLocale()),
		Memory:   mem,
		// The console declares look like main: it stands on monitor 0.
		Main:      true,
		ConfigDir: dir,
		Screen:    screen,
		Windows:   windows,
		SavePermission: func(m permission.Mode) error {
			return store.Update(func(s *settings.Settings) {
				for i := range s.Presets {
					if s.Presets[i].ID == preset.ID {
						s.Presets[i].Permissions.Screen = string(m)
					}
				}
			})
		},
		OnPrompt:       out.prompt,
		OnPromptClosed: out.promptClosed,
		SaveThread: func(id string) error {
			out.note("thread " + id + " (pass --thread " + id + " to come back to it)")
			return saveThread(store, saved, preset, o, id)
		},
		OnThread: func(st pet.ThreadStatus) {
			switch {
			case st.Deleted:
				out.note("the thread " + st.Thread + " was deleted; /reset makes a new one")
			case st.AgentUnknown:
				out.note("the agent " + preset.AgentID + " is not on this runtime (--agent)")
			}
		},
		Voice:      v,
		Vocabulary: vocab,
		HTTPClient: o.HTTPClient,
		Logger:     appLog,
		TurnLog:    applog.New(turnFile, slog.LevelInfo).With("preset", preset.ID),
		OnEvent:    onEvent,
		Now:        o.Now,
	})
	if err != nil {
		return fmt.Errorf("console: %w", err)
	}
	s := ch.Session
	defer s.Close()
	s.Start()
	if o.Listen {
		l := consoleListener(o, store.Get().Listen, s, heard, out, appLog)
		defer l.Close()
	}
	if preset.ChatBaseURL != "" {
		t := time.NewTimer(FirstConnectWait)
		select {
		case <-settled:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	return loop(ctx, s, ch.Gate, out, stdin)
}

// applyFlags overrides the preset's backend with the command line's
// flags that are set (--thread new: a new thread).
func applyFlags(preset *settings.Preset, o Options) {
	if o.URL != "" {
		preset.ChatBaseURL = o.URL
	}
	if o.Key != "" {
		preset.Key = o.Key
	}
	if o.ChatAPI != "" {
		preset.ChatAPI = o.ChatAPI
	}
	if o.Model != "" {
		preset.Model = o.Model
	}
	if o.Agent != "" {
		preset.AgentID = o.Agent
	}
	switch o.Thread {
	case "":
	case "new":
		preset.ThreadID = ""
	default:
		preset.ThreadID = o.Thread
	}
}

// loop feeds stdin lines to the session.
func loop(ctx context.Context, s *session.Session, gate *permission.Gate, out *printer, stdin io.Reader) error {
	lines := make(chan string)
	done := make(chan struct{})
	defer close(done)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdin)
		sc.Buffer(make([]byte, 64*1024), MaxLine)
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
			if quit := apply(s, gate, out, line); quit {
				return nil
			}
		}
	}
}

// apply runs one stdin line; it reports /quit.
func apply(s *session.Session, gate *permission.Gate, out *printer, line string) bool {
	c, ok := parseLine(line)
	if !ok {
		out.refuse("unknown command /" + c.name)
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
			out.refuse(err.Error())
		}
	case "allow":
		id, choice, err := answer(gate, c.arg)
		if err != nil {
			out.refuse(err.Error())
			break
		}
		out.promptAnswered(id, choice)
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
	d, err := settings.DefaultDir()
	if err != nil {
		return "", fmt.Errorf("console: %w", err)
	}
	return d, nil
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

// saveThread keeps a thread the console made in the saved preset, when the
// console runs the preset as saved (its chat_api and base URL, no other
// agent): a thread lives on the runtime it was made on.
func saveThread(store *settings.Store, saved, used settings.Preset, o Options, id string) error {
	if saved.ChatAPI != pet.StandardAgents || used.ChatAPI != pet.StandardAgents ||
		strings.TrimSpace(saved.ChatBaseURL) != strings.TrimSpace(used.ChatBaseURL) || (o.Agent != "" && o.Agent != saved.AgentID) {
		return nil
	}
	return store.Update(func(s *settings.Settings) {
		for i := range s.Presets {
			if s.Presets[i].ID == used.ID {
				s.Presets[i].ThreadID = id
			}
		}
	})
}
