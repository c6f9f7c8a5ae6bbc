package route

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"

	"yui/app/view"
)

// Handler handles one message a window sent.
type Handler func(peer view.Peer, m view.Message)

// Table maps a message type to its handler. Add every route before
// Serve is first called; Serve is then safe from any goroutine.
type Table struct {
	log      *slog.Logger
	handlers map[string]Handler
}

// New returns an empty table logging to lg.
func New(lg *slog.Logger) *Table {
	return &Table{log: lg, handlers: map[string]Handler{}}
}

// Add routes messages of the types to h. A type routed twice is a wiring
// mistake and panics.
func (t *Table) Add(h Handler, types ...string) {
	for _, typ := range types {
		if _, dup := t.handlers[typ]; dup {
			panic(fmt.Sprintf("route: %s routed twice", typ))
		}
		t.handlers[typ] = h
	}
}

// Types are the routed message types, sorted.
func (t *Table) Types() []string {
	out := make([]string, 0, len(t.handlers))
	for typ := range t.handlers {
		out = append(out, typ)
	}
	slices.Sort(out)
	return out
}

// Serve hands m to its route; an unrouted type is logged (view_unknown)
// and dropped.
func (t *Table) Serve(peer view.Peer, m view.Message) {
	h, ok := t.handlers[m.Type]
	if !ok {
		t.log.Warn("view_unknown", "type", m.Type, "role", peer.Role)
		return
	}
	h(peer, m)
}

// Rule says whether a peer may send a message.
type Rule func(view.Peer) bool

// Roles allows the peers of the given roles.
func Roles(roles ...string) Rule {
	return func(p view.Peer) bool { return slices.Contains(roles, p.Role) }
}

// PetShell allows the shell of a pet window (not the settings window's).
func PetShell(p view.Peer) bool { return p.Role == view.RoleShell && p.Preset != "" }

// SettingsShell allows the settings window's shell.
func SettingsShell(p view.Peer) bool { return p.Role == view.RoleShell && p.Preset == "" }

// Only passes to h the messages of peers rule allows; others are logged
// (view_refused, with reason) and dropped.
func Only(lg *slog.Logger, rule Rule, reason string, h Handler) Handler {
	return func(peer view.Peer, m view.Message) {
		if !rule(peer) {
			lg.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", reason)
			return
		}
		h(peer, m)
	}
}

// Decode reads m's body into v.
func Decode(m view.Message, v any) error { return json.Unmarshal(m.Body, v) }

// JSON decodes the body into a T for fn; a body that does not decode is
// logged (view_malformed) and dropped.
func JSON[T any](lg *slog.Logger, fn func(peer view.Peer, v T)) Handler {
	return func(peer view.Peer, m view.Message) {
		var v T
		if err := json.Unmarshal(m.Body, &v); err != nil {
			lg.Warn("view_malformed", "type", m.Type, "err", err.Error())
			return
		}
		fn(peer, v)
	}
}
