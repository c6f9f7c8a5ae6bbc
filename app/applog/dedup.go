package applog

import (
	"context"
	"log/slog"
)

// dedup is a slog.Handler that writes each key once per line: an attribute
// added later (a With on a With, or the record's own) replaces an earlier
// one of the same key, in the earlier one's place. Yui's loggers are
// layered (the process's "proc", a session's "preset", a demo backend's
// own "proc"), and a JSON line with a key twice is read differently by
// different tools. Groups are passed through to the inner handler.
type dedup struct {
	inner slog.Handler // has no attrs of its own unless grouped
	attrs []slog.Attr
}

func (h *dedup) Enabled(ctx context.Context, l slog.Level) bool { return h.inner.Enabled(ctx, l) }

func (h *dedup) WithAttrs(as []slog.Attr) slog.Handler {
	return &dedup{inner: h.inner, attrs: merge(h.attrs, as)}
}

func (h *dedup) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	// Attributes inside a group cannot clash with the ones outside it.
	return h.inner.WithAttrs(h.attrs).WithGroup(name)
}

func (h *dedup) Handle(ctx context.Context, r slog.Record) error {
	own := make([]slog.Attr, 0, r.NumAttrs())
	r.Attrs(func(a slog.Attr) bool {
		own = append(own, a)
		return true
	})
	out := slog.NewRecord(r.Time, r.Level, r.Message, r.PC)
	out.AddAttrs(merge(h.attrs, own)...)
	return h.inner.Handle(ctx, out)
}

// merge is base with add applied: a key already present is replaced in
// place, a new key appended; duplicates within add keep the last.
func merge(base, add []slog.Attr) []slog.Attr {
	out := make([]slog.Attr, len(base), len(base)+len(add))
	copy(out, base)
	at := make(map[string]int, len(out))
	for i, a := range out {
		at[a.Key] = i
	}
	for _, a := range add {
		if i, ok := at[a.Key]; ok && a.Key != "" {
			out[i] = a
			continue
		}
		at[a.Key] = len(out)
		out = append(out, a)
	}
	return out
}
