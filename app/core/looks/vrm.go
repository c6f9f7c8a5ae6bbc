package looks

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"slices"

	"yui/app/cue"
	"yui/app/lookfolder"
	"yui/app/view"
	"yui/transport/dataurl"
)

// A VRM look (docs/looks.md): a look folder holding a model; the pet page
// draws it from the model's bytes, which the view server serves at
// FilePath (app/core/wardrobe), never from a file path or an outside URL.

// VRMMotions are the VRM look's motions the renderer declares
// (vocabulary.json's "vrm" part, from frontend/src/vrm/motions.ts).
type VRMMotions struct {
	MotionIDs       []string `json:"motion_ids"`
	ClientMotionIDs []string `json:"client_motion_ids"`
}

// VRMMotionsFromPages reads the VRM look's motions from the pages'
// vocabulary.json; without them (an error saying so) a VRM look declares
// the client-notes defaults.
func VRMMotionsFromPages(pages fs.FS) (VRMMotions, error) {
	var decl struct {
		VRM *VRMMotions `json:"vrm"`
	}
	if pages != nil {
		if b, err := fs.ReadFile(pages, "vocabulary.json"); err == nil && json.Unmarshal(b, &decl) == nil && decl.VRM != nil {
			return *decl.VRM, nil
		}
	}
	d := cue.Default()
	return VRMMotions{MotionIDs: d.MotionIDs, ClientMotionIDs: d.ClientMotionIDs}, errors.New("no VRM motions in vocabulary.json")
}

// VRM is the usable VRM look folder id, or nil.
func (c Catalog) VRM(id string) *lookfolder.VRM {
	if slices.Contains(Builtin, id) {
		return nil
	}
	for _, l := range c.Folders() {
		if l.ID == id && l.Err == nil {
			return l.VRM
		}
	}
	return nil
}

// Vocabulary is what a character can render in look: a VRM look's mapped
// emotions and its motions (the procedural ones, its clips, the ids its
// mapping gives clips); any other look the SVG renderer's (Base).
func (c Catalog) Vocabulary(look string) cue.Vocabulary {
	v := c.VRM(look)
	if v == nil {
		return c.Base
	}
	out := c.Base
	out.EmotionIDs = v.Mapping.EmotionIDs()
	motions := slices.Clone(c.Motions.MotionIDs)
	var extra []string
	for id := range v.Mapping.Motions {
		if !slices.Contains(motions, id) {
			extra = append(extra, id)
		}
	}
	slices.Sort(extra)
	out.MotionIDs = append(motions, extra...)
	out.ClientMotionIDs = slices.Clone(c.Motions.ClientMotionIDs)
	return out
}

// FilePath is where the view server serves file of look id (rev: the
// look's revision, so a changed model is fetched again).
func FilePath(id, file, rev string) string {
	return "/look/file?" + url.Values{"look": {id}, "file": {file}, "rev": {rev}}.Encode()
}

// vrmArt is the look_art a pet page needs to draw the VRM look id.
func vrmArt(id string, v *lookfolder.VRM) *view.VRMLook {
	out := &view.VRMLook{
		Model:     FilePath(id, lookfolder.ModelFile, v.Rev),
		Emotions:  map[string]map[string]float64{},
		Motions:   map[string]string{},
		Clips:     map[string]string{},
		Breathing: v.Breathing,
	}
	for e, w := range v.Mapping.Emotions {
		out.Emotions[e] = w
	}
	for m, clip := range v.Mapping.Motions {
		out.Motions[m] = clip
	}
	for _, clip := range v.Clips {
		out.Clips[clip] = FilePath(id, clip+lookfolder.ClipExt, v.Rev)
	}
	return out
}

// VRMChoices are the VRM looks' thumbnails and options for the settings
// page.
func VRMChoices(folders []lookfolder.Look) []view.VRMLookChoice {
	var out []view.VRMLookChoice
	for _, l := range folders {
		if l.Err != nil || l.VRM == nil {
			continue
		}
		ch := view.VRMLookChoice{ID: l.ID, Version: l.VRM.Info.Version, Breathing: l.VRM.Breathing, TouchTurns: l.VRM.TouchTurns}
		if l.VRM.Thumb != nil {
			ch.Thumb = dataurl.Encode("image/png", l.VRM.Thumb)
		}
		out = append(out, ch)
	}
	return out
}
