package applog

import (
	"io"
	"log/slog"
	"strings"
	"time"
)

var secretKeys = map[string]bool{"key": true, "token": true, "api_key": true, "authorization": true, "password": true}

// The file name prefixes of the daily logs: the app log
// (yui-YYYY-MM-DD.log) and the turn log (yui-turns-YYYY-MM-DD.log), the
// same for the app and `yui console`.
const (
	AppLogPrefix  = "yui"
	TurnLogPrefix = "yui-turns"
)

// MaxValueRunes is the most code points of one string value a log line
// keeps: a longer value (a backend's tool_id, turn_id or error message, an
// error text) is cut there and ends with CutMark, so no frame can grow the
// log by more than a line's worth.
const MaxValueRunes = 200

// CutMark ends a value that was cut.
const CutMark = "…[cut]"

// New returns a JSON slog.Logger writing to w with Yui's key names (ts,
// level, event, then the fields), each key once per line (dedup.go). Every
// string and error value is cut to MaxValueRunes; attributes named like
// secrets are redacted; an event past FoldBurst lines a FoldWindow is
// folded into one log_folded line (fold.go).
func New(w io.Writer, level slog.Leveler) *slog.Logger {
	return newLogger(w, level, nil)
}

func newLogger(w io.Writer, level slog.Leveler, now func() time.Time) *slog.Logger {
	return slog.New(newFold(&dedup{inner: slog.NewJSONHandler(w, &slog.HandlerOptions{
		Level: level,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 {
				switch a.Key {
				case slog.TimeKey:
					a.Key = "ts"
					return a
				case slog.MessageKey:
					a.Key = "event"
				}
			}
			if secretKeys[strings.ToLower(a.Key)] {
				a.Value = slog.StringValue("[redacted]")
				return a
			}
			a.Value = cutValue(a.Value)
			return a
		},
	})}, now))
}

// cutValue cuts a string or error value to MaxValueRunes.
func cutValue(v slog.Value) slog.Value {
	switch v.Kind() {
	case slog.KindString:
		if s := v.String(); len(s) > MaxValueRunes {
			return slog.StringValue(Cut(s))
		}
	case slog.KindAny:
		if err, ok := v.Any().(error); ok && err != nil {
			if s := err.Error(); len(s) > MaxValueRunes {
				return slog.StringValue(Cut(s))
			}
		}
	}
	return v
}

// Cut returns s cut to MaxValueRunes code points, ending with CutMark when
// anything was cut.
func Cut(s string) string {
	if len(s) <= MaxValueRunes {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxValueRunes {
			return strings.ToValidUTF8(s[:i], "\uFFFD") + CutMark
		}
		n++
	}
	return s
}
