// Package looks is the catalog of the characters' looks: the built-in
// ones (frontend/src/character.ts LOOKS) and the look folders in
// <config dir>/looks (docs/looks.md, app/lookfolder). The settings window
// offers them (Choices) and refuses an unusable one (Problem); a pet page
// draws a folder look from its art (Art). A new built-in look is a line
// in Builtin and Labels and its drawing in the frontend.
package looks

import (
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"yui/app/cue"
	"yui/app/lookfolder"
	"yui/app/view"
	"yui/transport/dataurl"
)

// Builtin are the built-in looks.
var Builtin = []string{"yui", "mika", "sora"}

// Labels name the built-in looks in the settings form.
var Labels = map[string]string{"yui": "Yui — lavender hoodie", "mika": "Mika — ginger, mint jacket", "sora": "Sora — navy, mustard sweater"}

// Catalog reads the look folders of a config dir.
type Catalog struct {
	ConfigDir string // "" has no folders
	Log       *slog.Logger
	// Base is what the SVG renderer draws; Motions the VRM renderer's
	// motions (Vocabulary).
	Base    cue.Vocabulary
	Motions VRMMotions
}

// Folders reads the look folders now (the user may drop one in at any
// time; the settings window lists what is there when it opens or a save
// is made). A looks folder that cannot be read is logged and lists none.
func (c Catalog) Folders() []lookfolder.Look {
	if c.ConfigDir == "" {
		return nil
	}
	ls, err := lookfolder.Scan(c.ConfigDir, Builtin)
	if err != nil {
		c.Log.Warn("looks_unreadable", "err", err.Error())
		return nil
	}
	for _, l := range ls {
		if l.Err != nil {
			c.Log.Warn("look_refused", "look", l.ID, "err", l.Err.Error())
		}
		for _, e := range l.PoseErrs {
			c.Log.Warn("look_pose_refused", "look", l.ID, "err", e.Error())
		}
	}
	return ls
}

// Choices are the looks the settings form offers: the built-in ones, then
// each look folder (a refused one greyed out, its note naming the file at
// fault).
func Choices(folders []lookfolder.Look) []view.Choice {
	var out []view.Choice
	for _, id := range Builtin {
		out = append(out, view.Choice{ID: id, Label: Labels[id], Available: true})
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
		} else if len(l.PoseErrs) > 0 {
			ch.Note = "draws the built-in pose instead: " + errors.Join(l.PoseErrs...).Error()
		}
		out = append(out, ch)
	}
	return out
}

// Problem says why look cannot be chosen ("" when it can).
func Problem(look string, folders []lookfolder.Look) string {
	if slices.Contains(Builtin, look) {
		return ""
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

// Art is a pet page's look_art topic: a usable look folder's SVGs as
// data: URLs, a VRM look's model path and mapping (vrm.go), or none (a
// built-in look; a folder that became unusable falls back to the built-in
// figure).
func (c Catalog) Art(look string) view.LookArt {
	art := view.LookArt{Look: look}
	if slices.Contains(Builtin, look) {
		return art
	}
	for _, l := range c.Folders() {
		if l.ID == look && l.Err == nil && l.VRM != nil {
			art.VRM = vrmArt(l.ID, l.VRM)
		} else if l.ID == look && l.Err == nil {
			art.Emotions = map[string]string{}
			for e, svg := range l.Art {
				art.Emotions[e] = dataurl.Encode("image/svg+xml", svg)
			}
			if len(l.Poses) > 0 {
				art.Poses = map[string]string{}
				for p, svg := range l.Poses {
					art.Poses[p] = dataurl.Encode("image/svg+xml", svg)
				}
			}
		}
	}
	return art
}
