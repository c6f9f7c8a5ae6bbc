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
	fs.StringVar(&o.Key, "key", "", "chat API key, overriding the preset's")
	fs.StringVar(&o.ChatAPI, "chat-api", "", "push, responses or chat_completions, overriding the preset's")
	fs.StringVar(&o.Model, "model", "", "model name for responses and chat_completions, overriding the preset's")
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
