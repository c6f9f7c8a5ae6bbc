package push_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// A slog handler that records what the transport logs.

type logRec struct {
	Msg   string
	Attrs map[string]any
	Time  time.Time
}

type logRecorder struct {
	mu   sync.Mutex
	recs []logRec
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *logRecorder) WithGroup(string) slog.Handler            { return l }
func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	rec := logRec{Msg: r.Message, Attrs: map[string]any{}, Time: time.Now()}
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

func (l *logRecorder) count(msg string) int { return len(l.all(msg)) }

func (l *logRecorder) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs)
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

// ---- handler capture ----
