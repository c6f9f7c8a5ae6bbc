package demobackend

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"yui/app/applog"
	"yui/app/i18n"
	"yui/app/keyarg"
)

// Main is `yui demo-backend`: it parses --addr (default 127.0.0.1:8646),
// the key (--key-file or $YUI_KEY; --key with a warning), --delegation-delay
// and --time-scale, serves until
// SIGINT or SIGTERM and returns the exit code: 0 after a signal, 1 when it
// cannot listen or serve, 2 on a usage error. Logs go to stderr as JSON
// lines; stdout gets one line naming the socket URL once listening.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return runMain(ctx, args, os.Getenv, stdout, stderr)
}

// runMain is Main with the context that ends the run and the environment.
func runMain(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo-backend", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", DefaultAddr, "host:port to listen on")
	var keys keyarg.Flags
	fs.StringVar(&keys.KeyFile, "key-file", "", "file holding the chat API key clients must send ($YUI_KEY also works; one of them is required)")
	fs.StringVar(&keys.Key, "key", "", "the chat API key on the command line (discouraged: visible to other users)")
	delay := fs.Duration("delegation-delay", DefaultDelegationDelay, "how long a delegated demo task runs")
	scale := fs.Float64("time-scale", 1, "multiplier for the scripted delays of a turn")
	langFlag := fs.String("language", "en", "what she speaks before the user has written (en, ja, ko, zh-Hans); then she answers in the user's language")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "demo-backend: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	key, _, err := keyarg.Resolve(keys, getenv, prefixed{stderr})
	if err != nil {
		fmt.Fprintln(stderr, "demo-backend:", err)
		return 2
	}
	if key == "" {
		fmt.Fprintln(stderr, "demo-backend: a key is required: --key-file FILE or the YUI_KEY environment variable")
		return 2
	}
	lang, err := i18n.Parse(*langFlag)
	if err != nil {
		fmt.Fprintln(stderr, "demo-backend: --language:", err)
		return 2
	}
	if *delay < 0 || *scale < 0 {
		fmt.Fprintln(stderr, "demo-backend: --delegation-delay and --time-scale must not be negative")
		return 2
	}
	logger := applog.New(stderr, slog.LevelInfo)
	b := New(Config{Key: key, Logger: logger, DelegationDelay: *delay, TimeScale: *scale, Language: lang})
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", *addr)
	if err != nil {
		_ = b.Close()
		fmt.Fprintf(stderr, "demo-backend: listen on %s: %v\n", *addr, err)
		return 1
	}
	fmt.Fprintf(stdout, "Yui demo backend listening on ws://%s/ws\n", ln.Addr())
	if err := b.Serve(ctx, ln); err != nil {
		fmt.Fprintf(stderr, "demo-backend: %v\n", err)
		return 1
	}
	return 0
}

// prefixed puts the command's name in front of each warning line.
type prefixed struct{ w io.Writer }

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, "demo-backend: "); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
