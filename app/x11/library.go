package x11

import (
	"bytes"
	"log"
	"log/slog"
	"strings"

	"github.com/jezek/xgb"
)

// RouteLibraryLog sends the X library's own log lines to lg instead of the
// terminal. github.com/jezek/xgb prints "Could not get authority info:
// open ~/.Xauthority …" and "Trying connection without authority info..."
// to stderr on every connection to a server that needs no cookie (Xvfb,
// most local sessions); those go to lg at debug, anything else it says as
// a warning (event x11.library). It sets the library's package-level
// logger, so call it once per process, early (main).
func RouteLibraryLog(lg *slog.Logger) {
	xgb.Logger = log.New(libraryWriter{lg}, "", 0)
}

type libraryWriter struct{ lg *slog.Logger }

func (w libraryWriter) Write(p []byte) (int, error) {
	msg := strings.TrimSpace(string(bytes.TrimRight(p, "\n")))
	if strings.Contains(msg, "authority info") {
		w.lg.Debug("x11.library", "text", msg)
	} else {
		w.lg.Warn("x11.library", "text", msg)
	}
	return len(p), nil
}
