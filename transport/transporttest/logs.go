package transporttest

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// LogRecord is one line a Logs handler kept: its message (the event name),
// its attributes resolved, and when it was handled.
type LogRecord struct {
	Msg   string
	Attrs map[string]any
	Time  time.Time
}

// Logs is a slog.Handler that keeps every record, for tests that assert on
// the log lines a wire or a session writes. Safe for concurrent use; its
// zero value is ready. Attributes and groups given to WithAttrs and
// WithGroup are not kept.
type Logs struct {
	mu   sync.Mutex
	recs []LogRecord
}

func (l *Logs) Enabled(context.Context, slog.Level) bool { return true }
func (l *Logs) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *Logs) WithGroup(string) slog.Handler            { return l }

// Handle keeps r.
func (l *Logs) Handle(_ context.Context, r slog.Record) error {
	rec := LogRecord{Msg: r.Message, Attrs: map[string]any{}, Time: time.Now()}
	r.Attrs(func(a slog.Attr) bool {
		rec.Attrs[a.Key] = a.Value.Resolve().Any()
		return true
	})
	l.mu.Lock()
	l.recs = append(l.recs, rec)
	l.mu.Unlock()
	return nil
}

// Records are every record kept, oldest first (a copy).
func (l *Logs) Records() []LogRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]LogRecord(nil), l.recs...)
}

// All are the records with message msg, oldest first.
func (l *Logs) All(msg string) []LogRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []LogRecord
	for _, r := range l.recs {
		if r.Msg == msg {
			out = append(out, r)
		}
	}
	return out
}

// Count is how many records have message msg.
func (l *Logs) Count(msg string) int { return len(l.All(msg)) }

// Len is how many records were kept.
func (l *Logs) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recs)
}

// Dump is every record, a line each, for a failing test's message.
func (l *Logs) Dump() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var b strings.Builder
	for _, r := range l.recs {
		fmt.Fprintf(&b, "%s %v\n", r.Msg, r.Attrs)
	}
	return b.String()
}
