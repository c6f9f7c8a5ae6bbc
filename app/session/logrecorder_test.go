package session_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
)

// A slog handler that records what the session logs.

type logRec struct {
	Msg   string
	Attrs map[string]any
}

type logRecorder struct {
	mu   sync.Mutex
	recs []logRec
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logRecorder) WithGroup(string) slog.Handler            { return l }
func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	rec := logRec{Msg: r.Message, Attrs: map[string]any{}}
	r.Attrs(func(a slog.Attr) bool {
		rec.Attrs[a.Key] = a.Value.Resolve().Any()
		return true
	})
	l.mu.Lock()
	l.recs = append(l.recs, rec)
	l.mu.Unlock()
	return nil
}

func (l *logRecorder) all(msg string) []logRec {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []logRec
	for _, r := range l.recs {
		if r.Msg == msg {
			out = append(out, r)
		}
	}
	return out
}

func (l *logRecorder) dump() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, r := range l.recs {
		fmt.Fprintf(&b, "%s %v\n", r.Msg, r.Attrs)
	}
	return b.String()
}

// ---- event capture ----
