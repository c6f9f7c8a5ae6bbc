package core

import (
	"path/filepath"
	"strings"

	"yui/app/clientctx"
	"yui/app/core/among"
	"yui/app/core/route"
	apppet "yui/app/pet"
	"yui/app/relation"
	"yui/app/settings"
	"yui/app/view"
)

// newAmong opens the standings beside the settings and builds the room of
// characters talking (app/core/among).
func (c *Core) newAmong() {
	rel, err := relation.Open(relation.Config{Path: filepath.Join(c.opts.ConfigDir, relation.FileName), Log: c.log,
		OnChange: func(string) { c.sui.PublishState() }})
	if err != nil {
		c.log.Warn("relations_unreadable", "err", err.Error())
	}
	c.rel = rel
	c.talk = among.New(among.Config{Host: amongHost{c}, Logger: c.log})
	c.addAmongRoutes(c.routes)
}

// amongFor is a character's part of the tools among friends.
func (c *Core) amongFor(p settings.Preset, saveSite func(string) error) apppet.Among {
	id := p.ID
	return apppet.Among{
		Relations: c.rel,
		Cast:      castNames{c},
		Talk:      c.talk,
		LocalPages: func() bool {
			q, ok := c.presetNow(id)
			return ok && q.Permissions.LocalPages
		},
		Sites:    p.Permissions.BrowserSites,
		SaveSite: saveSite,
	}
}

// castNames resolves character names for rate_relation: any character
// saved (a standing toward one switched off is still hers).
type castNames struct{ c *Core }

func (n castNames) Character(name string) (string, bool) {
	for _, p := range n.c.store.Get().Presets {
		if strings.EqualFold(strings.TrimSpace(p.Name), name) {
			return p.ID, true
		}
	}
	return "", false
}

func (n castNames) Name(id string) string {
	if p, ok := n.c.presetNow(id); ok {
		return p.Name
	}
	return id
}

// amongHost is what the talk room asks of the core.
type amongHost struct{ c *Core }

// Find is an enabled character with a running session, not hidden.
func (h amongHost) Find(name string) (string, bool) {
	for _, p := range h.c.store.Get().Presets {
		if !p.Enabled || !strings.EqualFold(strings.TrimSpace(p.Name), strings.TrimSpace(name)) {
			continue
		}
		if h.c.pet(p.ID) == nil || h.c.desk.Hidden(p.ID) {
			return "", false
		}
		return p.ID, true
	}
	return "", false
}

func (h amongHost) Name(id string) string { return castNames(h).Name(id) }

func (h amongHost) StartTurn(id, from, text string) bool {
	pt := h.c.pet(id)
	if pt == nil {
		return false
	}
	pt.sess.StartTurn(text, clientctx.FromCharacter(from))
	return true
}

func (h amongHost) Said(fromID, toID, text string) {
	if pt := h.c.pet(fromID); pt != nil {
		pt.view.Said(h.Name(toID), text)
	}
}

func (h amongHost) Talk() settings.Talk { return h.c.store.Get().Talk }

// standings are a character's standings as the settings window lists
// them.
func (c *Core) standings(preset string) []view.Standing {
	if c.rel == nil {
		return nil
	}
	var out []view.Standing
	for _, st := range c.rel.Standings(preset) {
		name := "You"
		if st.Target != relation.User {
			name = castNames{c}.Name(st.Target)
		}
		out = append(out, view.Standing{Target: st.Target, Name: name, Value: st.Value, Band: st.Band(),
			Reason: st.Reason, At: st.At.UnixMilli()})
	}
	return out
}

// addAmongRoutes registers the settings window's reset of a standing.
func (c *Core) addAmongRoutes(t *route.Table) {
	t.Add(route.Only(c.log, route.Roles(view.RoleSettings), "only the settings window resets a standing",
		route.JSON(c.log, func(_ view.Peer, a view.ResetStanding) {
			if c.rel.Reset(a.Preset, a.Target) {
				c.log.Info("relation_reset", "preset", a.Preset, "target", a.Target)
			}
		})), view.TypeResetStanding)
}
