package demobackend

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/keyarg"
	"yui/transport"
	"yui/transport/push"
)

// hangLimit bounds every wait in these real-socket tests; each wait ends
// at the line, frame or exit it awaits, so the limit only stops a hang.
const hangLimit = 60 * time.Second

// lineWriter hands every written line to a channel.
type lineWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines chan string
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		l, err := w.buf.ReadString('\n')
		if err != nil {
			w.buf.WriteString(l)
			return len(p), nil
		}
		select {
		case w.lines <- strings.TrimSpace(l):
		default:
		}
	}
}

func TestMainUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},                      // no key
		{"--key", "k", "extra"}, // stray argument
		{"--bogus"},             // unknown flag
		{"--key", "k", "--time-scale", "-1"},
		{"--key", "k", "--language", "jp"},
		{"--key", "k", "--key-file", "f"}, // both
		{"--key-file", "/nonexistent/key"},
	} {
		var stderr bytes.Buffer
		if code := runMain(context.Background(), args, noEnv, io.Discard, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, stderr.String())
		}
	}
	if code := runMain(context.Background(), []string{"--help"}, noEnv, io.Discard, io.Discard); code != 0 {
		t.Errorf("--help: exit %d", code)
	}
}

func noEnv(string) string { return "" }

// The key may come from a file; --key still works with a warning.
func TestMainKeySources(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	keyFile := filepath.Join(t.TempDir(), "key")
	os.WriteFile(keyFile, []byte("k\n"), 0o600)
	// The address is taken, so a run that got its key exits 1 (listen),
	// one that did not exits 2 (usage).
	for _, tc := range []struct {
		args []string
		warn bool
	}{{[]string{"--key-file", keyFile}, false}, {[]string{"--key", "k"}, true}} {
		var stderr bytes.Buffer
		code := runMain(context.Background(), append([]string{"--addr", ln.Addr().String()}, tc.args...), noEnv, io.Discard, &stderr)
		if code != 1 {
			t.Fatalf("%v: exit %d (stderr %q), want 1: the key was read", tc.args, code, stderr.String())
		}
		if warned := strings.Contains(stderr.String(), "--key-file"); warned != tc.warn {
			t.Fatalf("%v: warning %v, want %v: %q", tc.args, warned, tc.warn, stderr.String())
		}
	}
}

func TestMainCannotListen(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var stderr bytes.Buffer
	if code := runMain(context.Background(), []string{"--addr", ln.Addr().String(), "--key", "k"}, noEnv, io.Discard, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1 (stderr %q)", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "listen on "+ln.Addr().String()) {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// TestMainServesATurnOverRealTCP runs the command on a real socket, talks
// to it with the push client, and stops it by cancelling (as a signal does).
func TestMainServesATurnOverRealTCP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout := &lineWriter{lines: make(chan string, 4)}
	exit := make(chan int, 1)
	go func() {
		// The key comes from the environment, not the command line.
		env := func(k string) string {
			if k == keyarg.EnvVar {
				return "secret"
			}
			return ""
		}
		exit <- runMain(ctx, []string{"--addr", "127.0.0.1:0", "--time-scale", "0.01"}, env, stdout, io.Discard)
	}()
	var first string
	select {
	case first = <-stdout.lines:
	case <-time.After(hangLimit):
		t.Fatal("no listening line")
	}
	const prefix = "Yui demo backend listening on ws://"
	if !strings.HasPrefix(first, prefix) || !strings.HasSuffix(first, "/ws") {
		t.Fatalf("stdout %q", first)
	}
	addr := strings.TrimSuffix(strings.TrimPrefix(first, prefix), "/ws")

	frames := make(chan push.Frame, 32)
	ready := make(chan struct{})
	var readyOnce sync.Once
	c, err := push.New(push.Config{
		Endpoint: func() string { return "http://" + addr },
		Key:      func() string { return "secret" },
		ChatID:   "yui-0000tcp0",
		Handler: transport.HandlerFuncs{Event: func(e transport.Event) { frames <- push.FrameOf(e) }, State: func(s push.StateChange) {
			if s.To == push.StateReady {
				readyOnce.Do(func() { close(ready) })
			}
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	c.Start()
	defer c.Close()
	deadline := time.After(hangLimit)
	select {
	case <-ready:
	case <-deadline:
		t.Fatalf("state %v", c.State())
	}
	if err := c.SendTurn(ctx, push.Turn{TurnID: "1", Text: "silent"}); err != nil {
		t.Fatal(err)
	}
	var types []string
	for done := false; !done; {
		select {
		case f := <-frames:
			types = append(types, f.FrameType())
			done = f.FrameType() == push.TypeTurnEnd
		case <-deadline:
			t.Fatalf("frames so far %q", types)
		}
	}
	if got := strings.Join(types, " "); got != "delegations reasoning render turn_end" {
		t.Fatalf("frames %q", got)
	}
	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(hangLimit):
		t.Fatal("did not stop")
	}
}

func TestRunReportsListenError(t *testing.T) {
	b := New(Config{Key: "k"})
	err := b.Run(context.Background(), "256.0.0.1:1")
	if err == nil || !strings.Contains(err.Error(), "demobackend: listen on 256.0.0.1:1") {
		t.Fatalf("err %v", err)
	}
}

func TestRunServesUntilContextEnds(t *testing.T) {
	// The demo.listening log line says where Run listens: the test waits
	// for it, proves the backend answers there, then ends the context.
	listening := make(chan string, 1)
	b := New(Config{Key: "k", Logger: slog.New(listenHandler(listening))})
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- b.Run(ctx, "127.0.0.1:0") }()
	var addr string
	select {
	case addr = <-listening:
	case err := <-errc:
		t.Fatalf("Run returned before listening: %v", err)
	case <-time.After(hangLimit):
		t.Fatal("no demo.listening line")
	}
	resp, err := http.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "Yui demo backend") {
		t.Fatalf("GET / answered %q", body)
	}
	cancel()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(hangLimit):
		t.Fatal("Run did not return")
	}
}

// listenHandler is a slog handler that sends the addr of a demo.listening
// record to ch.
type listenHandler chan string

func (h listenHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h listenHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h listenHandler) WithGroup(string) slog.Handler            { return h }
func (h listenHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "demo.listening" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "addr" {
			select {
			case h <- a.Value.String():
			default:
			}
		}
		return true
	})
	return nil
}
