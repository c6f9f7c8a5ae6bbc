package core

import (
	"encoding/base64"
	"fmt"

	"yui/app/lookfolder"
	"yui/app/view"
)

// Looks are the built-in character looks (frontend/src/character.ts
// LOOKS); look folders in <config dir>/looks add more (docs/looks.md).
var Looks = []string{"yui", "mika", "sora"}

var lookLabels = map[string]string{"yui": "Yui — lavender hoodie", "mika": "Mika — ginger, mint jacket", "sora": "Sora — navy, mustard sweater"}

// folderLooks reads the look folders now (the user may drop one in at any
// time; the settings window lists what is there when it opens or a save
// is made). A looks folder that cannot be read is logged and lists none.
func (c *Core) folderLooks() []lookfolder.Look {
	if c.opts.ConfigDir == "" {
		return nil
	}
	ls, err := lookfolder.Scan(c.opts.ConfigDir, Looks)
	if err != nil {
		c.log.Warn("looks_unreadable", "err", err.Error())
		return nil
	}
	for _, l := range ls {
		if l.Err != nil {
			c.log.Warn("look_refused", "look", l.ID, "err", l.Err.Error())
		}
	}
	return ls
}

// lookChoices are the looks the settings form offers: the built-in ones,
// then each look folder (a refused one greyed out, its note naming the
// file at fault).
func lookChoices(folders []lookfolder.Look) []view.Choice {
	var out []view.Choice
	for _, id := range Looks {
		out = append(out, view.Choice{ID: id, Label: lookLabels[id], Available: true})
	}
	for _, l := range folders {
		kind := " (look folder)"
		if l.VRM != nil {
			kind = " (VRM model)"
		}
		ch := view.Choice{ID: l.ID, Label: l.Name + kind, Available: l.Err == nil}
		if l.Name == "" {
			ch.Label = l.ID + kind
		}
		if l.Err != nil {
			ch.Note = "cannot be used: " + l.Err.Error()
		}
		out = append(out, ch)
	}
	return out
}

// lookProblem says why look cannot be chosen ("" when it can).
func lookProblem(look string, folders []lookfolder.Look) string {
	for _, id := range Looks {
		if id == look {
			return ""
		}
	}
	for _, l := range folders {
		if l.ID == look {
			if l.Err != nil {
				return fmt.Sprintf("the look folder %q cannot be used: %v", look, l.Err)
			}
			return ""
		}
	}
	return fmt.Sprintf("%q is not a look this version can draw", look)
}

// publishLookArt sets preset's look_art topic: a usable look folder's
// SVGs as data: URLs, or none (a built-in look; a folder that became
// unusable falls back to the built-in figure).
func (c *Core) publishLookArt(preset, look string) {
	// A VRM look's page gets the model's path and mapping (vrmlook.go).
	art := view.LookArt{Look: look}
	builtin := false
	for _, id := range Looks {
		builtin = builtin || id == look
	}
	if !builtin {
		for _, l := range c.folderLooks() {
			if l.ID == look && l.Err == nil && l.VRM != nil {
				art.VRM = vrmArt(l.ID, l.VRM)
			} else if l.ID == look && l.Err == nil {
				art.Emotions = map[string]string{}
				for e, svg := range l.Art {
					art.Emotions[e] = "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(svg)
				}
			}
		}
	}
	c.view.Publish(preset, view.TypeLookArt, view.MustEncode(view.TypeLookArt, art))
}
