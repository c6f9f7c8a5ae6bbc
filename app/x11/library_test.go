package x11

import (
	"bytes"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/jezek/xgb"
)

// The library's authority notes (printed on every connection without an
// .Xauthority) go to the log at debug, never to the terminal; a real
// problem is a warning.
func TestLibraryLogGoesToTheLogNotTheTerminal(t *testing.T) {
	saved := xgb.Logger
	t.Cleanup(func() { xgb.Logger = saved })
	var buf bytes.Buffer
	RouteLibraryLog(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	// A connection without an authority file: the library logs its note.
	t.Setenv("XAUTHORITY", "/nonexistent/.Xauthority")
	t.Setenv("HOME", t.TempDir())
	// A server that accepts and hangs up: the library has looked for the
	// authority file by then.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	if c, err := xgb.NewConnDisplay(fmt.Sprintf("127.0.0.1:%d", port-6000)); err == nil {
		c.Close()
	}
	xgb.Logger.Printf("A read error is unrecoverable: %s", "EOF")
	out := buf.String()
	if !strings.Contains(out, `"level":"DEBUG"`) || !strings.Contains(out, "authority info") {
		t.Fatalf("authority note not logged at debug:\n%s", out)
	}
	if !strings.Contains(out, `"level":"WARN"`) || !strings.Contains(out, "unrecoverable") {
		t.Fatalf("a library problem not a warning:\n%s", out)
	}
}
