package applog

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
)

var secretKeys = map[string]bool{"key": true, "token": true, "api_key": true, "authorization": true, "password": true}

// The file name prefixes of the daily logs: the app log
// (yui-YYYY-MM-DD.log) and the turn log (yui-turns-YYYY-MM-DD.log), the
// same for the app and `yui console`.
const (
	AppLogPrefix  = "yui"
	TurnLogPrefix = "yui-turns"
)

// New returns a JSON slog.Logger writing to w with Yui's key names (ts,
// level, event, then the fields), each key once per line (dedup.go).
func New(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(&dedup{inner: slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 {
				switch a.Key {
				case slog.TimeKey:
					a.Key = "ts"
				case slog.MessageKey:
					a.Key = "event"
				}
			}
			if secretKeys[strings.ToLower(a.Key)] {
				a.Value = slog.StringValue("[redacted]")
			}
			return a
		},
	})})
}

// DefaultDir returns the log directory: $XDG_STATE_HOME/yui/logs, else
// ~/.local/state/yui/logs.
func DefaultDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "yui", "logs")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "yui-logs")
	}
	return filepath.Join(home, ".local", "state", "yui", "logs")
}
