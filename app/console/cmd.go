package console

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"yui/app/keyarg"
	"yui/app/pet"
)

// Main is `yui console ARGS`: it parses the flags, runs the console with
// stdin and stdout, and returns the exit code (0 on /quit and end of
// input, 2 on a flag error, 1 otherwise, 130 on an interrupt).
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o, err := ParseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return 2
	}
	// Read once; processes this one starts do not inherit the key.
	os.Unsetenv(keyarg.EnvVar)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := Run(ctx, o, stdin, stdout); err != nil {
		if ctx.Err() != nil {
			return 130
		}
		fmt.Fprintln(stderr, "yui console:", err)
		return 1
	}
	return 0
}

// ParseFlags reads the console's flags (docs/console.md).
func ParseFlags(args []string, stderr io.Writer) (Options, error) {
	var o Options
	fs := flag.NewFlagSet("yui console", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.Preset, "preset", "", "preset id or name (default: the active preset)")
	fs.StringVar(&o.URL, "url", "", "chat_base_url, overriding the preset's")
	var keys keyarg.Flags
	fs.StringVar(&keys.Key, "key", "", "chat API key, overriding the preset's (discouraged: visible to other users; use --key-file or $YUI_KEY)")
	fs.StringVar(&keys.KeyFile, "key-file", "", "file holding the chat API key, overriding the preset's ($YUI_KEY also works)")
	fs.StringVar(&o.ChatAPI, "chat-api", "", "push, responses, chat_completions or standard_agents, overriding the preset's")
	fs.StringVar(&o.Model, "model", "", "model name for responses and chat_completions, overriding the preset's")
	fs.StringVar(&o.Agent, "agent", "", "standard_agents: the agent a new thread is made for, overriding the preset's")
	fs.StringVar(&o.Thread, "thread", "", "standard_agents: the thread to attach to, overriding the preset's (\"new\": a new thread)")
	fs.StringVar(&o.ConfigDir, "config-dir", "", "settings directory (default: os.UserConfigDir()/yui)")
	fs.StringVar(&o.LogDir, "log-dir", "", "log directory (default: the app log directory)")
	fs.Float64Var(&o.SpeechRate, "speech-rate", 15, "characters per second of the silent voice; 0 = instant")
	fs.BoolVar(&o.JSON, "json", false, "print one JSON object per event")
	fs.BoolVar(&o.Voice, "voice", false, "speak the replies aloud with the preset's voice settings")
	fs.BoolVar(&o.Listen, "listen", false, "hear the microphone: each utterance becomes a spoken turn (settings' listen section)")
	if err := fs.Parse(args); err != nil {
		return Options{}, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "yui console: unexpected argument %q\n", fs.Arg(0))
		return Options{}, fmt.Errorf("console: unexpected argument %q", fs.Arg(0))
	}
	key, _, err := keyarg.Resolve(keys, os.Getenv, prefixed{stderr, "yui console: "})
	if err != nil {
		fmt.Fprintln(stderr, "yui console:", err)
		return Options{}, fmt.Errorf("console: %w", err)
	}
	o.Key = key
	if o.ChatAPI != "" && !slices.Contains(pet.Wires, o.ChatAPI) {
		fmt.Fprintf(stderr, "yui console: --chat-api must be one of %s\n", strings.Join(pet.Wires, ", "))
		return Options{}, fmt.Errorf("console: unknown --chat-api %q", o.ChatAPI)
	}
	if o.SpeechRate < 0 {
		fmt.Fprintln(stderr, "yui console: --speech-rate must be 0 or more")
		return Options{}, errors.New("console: negative --speech-rate")
	}
	return o, nil
}

// prefixed writes each warning line with the command's name in front.
type prefixed struct {
	w      io.Writer
	prefix string
}

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
