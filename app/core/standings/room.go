package standings

import (
	"log/slog"
	"path/filepath"
	"strings"

	"yui/app/core/route"
	"yui/app/relation"
	"yui/app/settings"
	"yui/app/view"
)

// Store is the settings file.
type Store interface{ Get() settings.Settings }

// Config makes a Room.
type Config struct {
	// ConfigDir holds relations.json beside the settings.
	ConfigDir string
	Store     Store
	// OnChange is told a standing changed (the settings window's state).
	OnChange func()
	Logger   *slog.Logger
}

// Room keeps the standings.
type Room struct {
	rel   *relation.Store
	names Names
	log   *slog.Logger
}

// New opens the standings; a file that cannot be read is logged and the
// store starts empty (relation.Open).
func New(cfg Config) *Room {
	lg := cfg.Logger
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	rel, err := relation.Open(relation.Config{Path: filepath.Join(cfg.ConfigDir, relation.FileName), Log: lg,
		OnChange: func(string) { cfg.OnChange() }})
	if err != nil {
		lg.Warn("relations_unreadable", "err", err.Error())
	}
	return &Room{rel: rel, names: Names{Store: cfg.Store}, log: lg}
}

// Relations is the store rate_relation rates in.
func (r *Room) Relations() *relation.Store { return r.rel }

// Names resolves the characters' names for rate_relation.
func (r *Room) Names() Names { return r.names }

// List is preset's standings as the settings window lists them.
func (r *Room) List(preset string) []view.Standing {
	if r.rel == nil {
		return nil
	}
	var out []view.Standing
	for _, st := range r.rel.Standings(preset) {
		name := "You"
		if st.Target != relation.User {
			name = r.names.Name(st.Target)
		}
		out = append(out, view.Standing{Target: st.Target, Name: name, Value: st.Value, Band: st.Band(),
			Reason: st.Reason, At: st.At.UnixMilli()})
	}
	return out
}

// Forget drops a removed character's standings, and the others' toward her.
func (r *Room) Forget(preset string) { r.rel.Forget(preset) }

// Close writes the standings out.
func (r *Room) Close() { r.rel.Close() }

// Routes registers the settings window's reset of a standing.
func (r *Room) Routes(t *route.Table) {
	t.Add(route.Only(r.log, route.Roles(view.RoleSettings), "only the settings window resets a standing",
		route.JSON(r.log, func(_ view.Peer, a view.ResetStanding) {
			if r.rel.Reset(a.Preset, a.Target) {
				r.log.Info("relation_reset", "preset", a.Preset, "target", a.Target)
			}
		})), view.TypeResetStanding)
}

// Names resolves character names (relation.Cast): any character saved (a
// standing toward one switched off is still hers).
type Names struct{ Store Store }

// Character is the preset id of the character named name.
func (n Names) Character(name string) (string, bool) {
	for _, p := range n.Store.Get().Presets {
		if strings.EqualFold(strings.TrimSpace(p.Name), name) {
			return p.ID, true
		}
	}
	return "", false
}

// Name is preset id's name, or id when she is gone.
func (n Names) Name(id string) string {
	all := n.Store.Get()
	if p, ok := all.Preset(id); ok {
		return p.Name
	}
	return id
}

var _ relation.Cast = Names{}
