package demobackend

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/signal"
	"syscall"

	"yui/app/applog"
)

// Main is `yui demo-backend`: it parses --addr (default 127.0.0.1:8646),
// --key (required), --delegation-delay and --time-scale, serves until
// SIGINT or SIGTERM and returns the exit code: 0 after a signal, 1 when it
// cannot listen or serve, 2 on a usage error. Logs go to stderr as JSON
// lines; stdout gets one line naming the socket URL once listening.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	return runMain(ctx, args, stdout, stderr)
}

// runMain is Main with the context that ends the run.
func runMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("demo-backend", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", DefaultAddr, "host:port to listen on")
	key := fs.String("key", "", "chat API key clients must send (required)")
	delay := fs.Duration("delegation-delay", DefaultDelegationDelay, "how long a delegated demo task runs")
	scale := fs.Float64("time-scale", 1, "multiplier for the scripted delays of a turn")
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
	if *key == "" {
		fmt.Fprintln(stderr, "demo-backend: --key is required")
		return 2
	}
	if *delay < 0 || *scale < 0 {
		fmt.Fprintln(stderr, "demo-backend: --delegation-delay and --time-scale must not be negative")
		return 2
	}
	logger := applog.New(stderr, slog.LevelInfo)
	b := New(Config{Key: *key, Logger: logger, DelegationDelay: *delay, TimeScale: *scale})
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
