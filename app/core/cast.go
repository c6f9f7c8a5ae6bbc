package core

import (
	"yui/app/clientctx"
	"yui/app/core/archive"
	"yui/app/core/cast"
	"yui/app/settings"
)

// reconcile brings the running pets in line with after (cast.Plan): pets
// of presets now off or gone stop (window and connection), new ones
// start, and a pet whose connection settings or main-ness changed gets a
// new session (its window stays). Other changes apply in place. Call with
// applyMu held.
func (c *Core) reconcile(before, after settings.Settings) {
	started := c.pets.Started()
	for _, st := range cast.Plan(before, after, c.vocabularyChanged) {
		switch st.Do {
		case cast.Stop:
			c.removePet(st.Old.ID)
		case cast.Forget:
			c.rel.Forget(st.Old.ID) // her standings, and the others' toward her
		case cast.Start:
			c.addPet(st.New, st.Main, started)
		case cast.Remake:
			c.replacePet(st.New, st.Main, started)
		case cast.Update:
			c.updatePet(st.Old, st.New)
		}
	}
}

func (c *Core) addPet(p settings.Preset, main, started bool) {
	if c.installPet(p, main, started) == nil {
		return
	}
	c.log.Info("pet_added", "preset", p.ID, "main", main)
	// A browser loading the pages from the core learns the new page's
	// token here (the trace is never the log).
	c.trace(map[string]any{"event": "page_token", "preset": p.ID, "token": c.wins.PageToken(p.ID)})
	if started && !c.opts.NoWindows {
		c.sup.Run(c.wins.PetSpec(p))
	}
}

func (c *Core) removePet(id string) {
	pt, ok := c.pets.Take(id)
	if !ok {
		return
	}
	pt.Close()
	c.wins.End(id)
	c.view.Forget(id)
	c.companion.Forget(id)
	c.log.Info("pet_removed", "preset", id)
}

func (c *Core) replacePet(p settings.Preset, main, started bool) {
	if c.installPet(p, main, started) != nil {
		c.log.Info("pet_reconnected", "preset", p.ID, "main", main)
	}
}

// installPet makes a new pet (session) for p in place of the running one,
// if any, which it closes first; publishes the new pet's fresh state (the
// old session's bubble, reasoning and prompt belong to a conversation that
// ended with its connection); and starts its session once Run has started.
// A pet that cannot be made leaves none (logged) and returns nil.
func (c *Core) installPet(p settings.Preset, main, started bool) *pet {
	if old := c.pet(p.ID); old != nil {
		old.Close()
		c.companion.Forget(p.ID)
	}
	pt, err := c.newPet(p, main)
	if err != nil {
		c.pets.Take(p.ID)
		c.log.Error("pet_start_failed", "preset", p.ID, "err", err.Error())
		return nil
	}
	c.pets.Put(p.ID, pt)
	c.view.Forget(p.ID)
	c.publishPet(p, pt, settings.Report{})
	if started {
		pt.Session.Start()
	}
	return pt
}

// updatePet applies changes that need no new connection: name and look
// (the page's preset topic and the windows' titles), permissions (the gate and the pill), context window (the
// usage readout).
func (c *Core) updatePet(old, p settings.Preset) {
	pt := c.pet(p.ID)
	if pt == nil {
		return
	}
	if old.Name != p.Name || old.Look != p.Look {
		c.publishInitial(p, settings.Report{})
	}
	pt.Update(old, p, c.spokenVoice(p))
}

// pet returns the running pet of preset id, or nil.
func (c *Core) pet(id string) *pet {
	pt, _ := c.pets.Get(id)
	return pt
}

// each is every running pet as a T (the view a room has of her), in no
// order.
func each[T any](c *Core) []T {
	var out []T
	for _, pt := range c.pets.All() {
		out = append(out, any(pt).(T))
	}
	return out
}

func (c *Core) closePets() {
	for _, pt := range c.pets.TakeAll() {
		pt.Close()
	}
}

// shown reports whether preset id's character runs with her window shown.
func (c *Core) shown(id string) bool { return c.pet(id) != nil && !c.desk.Hidden(id) }

// startTurn starts a turn of preset id's character with text from
// trigger; false when she does not run.
func (c *Core) startTurn(id, text string, trigger clientctx.Trigger) bool {
	pt := c.pet(id)
	if pt == nil {
		return false
	}
	pt.Session.StartTurn(text, trigger)
	return true
}

// say shows, in preset id's message window, text she said to the
// character named to.
func (c *Core) say(id, to, text string) {
	if pt := c.pet(id); pt != nil {
		pt.view.Said(to, text)
	}
}

// sendTranscript sends preset id's message page her transcript.
func (c *Core) sendTranscript(id string) {
	if pt := c.pet(id); pt != nil {
		pt.view.SendTranscript()
	}
}

// history is preset's transcript store while she runs.
func (c *Core) history(preset string) (archive.Store, bool) {
	if pt := c.pet(preset); pt != nil && pt.History != nil {
		return pt.History, true
	}
	return nil, false
}
