package core

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"yui/app/clientctx"
	"yui/app/cue"
	"yui/app/lookfolder"
	"yui/app/view"
)

// The VRM look's part of the core (docs/looks.md): the model's bytes for
// the pet page over the view server (never a file path or an outside
// URL), the importer the settings page posts a .vrm to, the look's
// vocabulary, thumbnails and options, touches and the page's fallback.

// TouchTurnGap is the least time between two turns touches start for one
// character (a user patting away does not flood the backend).
const TouchTurnGap = 10 * time.Second

// vrmMotions are the VRM look's motions the renderer declares
// (vocabulary.json's "vrm" part, from frontend/src/vrm/motions.ts).
type vrmMotions struct {
	MotionIDs       []string `json:"motion_ids"`
	ClientMotionIDs []string `json:"client_motion_ids"`
}

// vrmState is the core's VRM look state: the renderer's motions and when
// each character's last touch turn started.
type vrmState struct {
	motions vrmMotions
	mu      sync.Mutex
	touched map[string]time.Time
}

// loadVRMMotions reads the VRM look's motions from the pages'
// vocabulary.json (nil without one: a VRM look then declares the
// client-notes defaults).
func loadVRMMotions(pages fs.FS, lg *slog.Logger) vrmMotions {
	var decl struct {
		VRM *vrmMotions `json:"vrm"`
	}
	if pages != nil {
		if b, err := fs.ReadFile(pages, "vocabulary.json"); err == nil && json.Unmarshal(b, &decl) == nil && decl.VRM != nil {
			return *decl.VRM
		}
	}
	lg.Warn("vocabulary_default", "reason", "no VRM motions in vocabulary.json")
	d := cue.Default()
	return vrmMotions{MotionIDs: d.MotionIDs, ClientMotionIDs: d.ClientMotionIDs}
}

// vrmRoutes are the view server's routes for VRM looks.
func (c *Core) vrmRoutes() map[string]view.Route {
	return map[string]view.Route{
		"/look/file":   {Roles: []string{view.RolePet, view.RoleSettings}, Serve: c.serveLookFile},
		"/look/import": {Roles: []string{view.RoleSettings}, Serve: c.serveLookImport},
	}
}

// vrmFolder is the usable VRM look folder id, or nil.
func (c *Core) vrmFolder(id string) *lookfolder.VRM {
	if slices.Contains(Looks, id) {
		return nil
	}
	for _, l := range c.folderLooks() {
		if l.ID == id && l.Err == nil {
			return l.VRM
		}
	}
	return nil
}

// lookVocabulary is what the character can render in look: a VRM look's
// mapped emotions and its motions (the procedural ones, its clips, the
// ids its mapping gives clips); any other look the SVG renderer's.
func (c *Core) lookVocabulary(look string) cue.Vocabulary {
	v := c.vrmFolder(look)
	if v == nil {
		return c.vocab
	}
	out := c.vocab
	out.EmotionIDs = v.Mapping.EmotionIDs()
	motions := slices.Clone(c.vrm.motions.MotionIDs)
	var extra []string
	for id := range v.Mapping.Motions {
		if !slices.Contains(motions, id) {
			extra = append(extra, id)
		}
	}
	slices.Sort(extra)
	out.MotionIDs = append(motions, extra...)
	out.ClientMotionIDs = slices.Clone(c.vrm.motions.ClientMotionIDs)
	return out
}

// vrmArt is the look_art a pet page needs to draw the VRM look id.
func vrmArt(id string, v *lookfolder.VRM) *view.VRMLook {
	path := func(file string) string {
		return "/look/file?" + url.Values{"look": {id}, "file": {file}, "rev": {v.Rev}}.Encode()
	}
	out := &view.VRMLook{
		Model:     path(lookfolder.ModelFile),
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
		out.Clips[clip] = path(clip + lookfolder.ClipExt)
	}
	return out
}

// vrmLookChoices are the VRM looks' thumbnails and options for the
// settings page.
func vrmLookChoices(folders []lookfolder.Look) []view.VRMLookChoice {
	var out []view.VRMLookChoice
	for _, l := range folders {
		if l.Err != nil || l.VRM == nil {
			continue
		}
		ch := view.VRMLookChoice{ID: l.ID, Version: l.VRM.Info.Version, Breathing: l.VRM.Breathing, TouchTurns: l.VRM.TouchTurns}
		if l.VRM.Thumb != nil {
			ch.Thumb = "data:image/png;base64," + base64.StdEncoding.EncodeToString(l.VRM.Thumb)
		}
		out = append(out, ch)
	}
	return out
}

// serveLookFile serves a file of the VRM look the page's character wears
// now (the settings page: of any VRM look, for its thumbnail): model.vrm
// or one of its clips. Another look's files, or any other file, are
// refused (404).
func (c *Core) serveLookFile(w http.ResponseWriter, r *http.Request, g view.Grant) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	look, file := q.Get("look"), q.Get("file")
	p, ok := c.presetNow(g.Preset)
	if g.Role != view.RoleSettings && (!ok || p.Look != look) {
		c.log.Warn("look_file_refused", "preset", g.Preset, "look", cutLog(look), "reason", "not the character's look")
		http.NotFound(w, r)
		return
	}
	v := c.vrmFolder(look)
	if v == nil {
		http.NotFound(w, r)
		return
	}
	path, ok := v.ModelPath(file)
	if !ok {
		c.log.Warn("look_file_refused", "preset", g.Preset, "look", look, "file", cutLog(file), "reason", "not a file of the look")
		http.NotFound(w, r)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "model/gltf-binary")
	http.ServeContent(w, r, "", fi.ModTime(), f)
}

// importAnswer is /look/import's JSON answer.
type importAnswer struct {
	OK    bool   `json:"ok"`
	Look  string `json:"look,omitempty"`
	Name  string `json:"name,omitempty"`
	Error string `json:"error,omitempty"`
}

// serveLookImport makes a VRM look folder of the posted .vrm (the body;
// the file's name in ?name=). Whatever fails is answered with what is
// wrong; no character's look changes (the settings page selects the new
// look in its form, and a save applies it).
func (c *Core) serveLookImport(w http.ResponseWriter, r *http.Request, _ view.Grant) {
	answer := func(code int, a importAnswer) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(a)
	}
	if r.Method != http.MethodPost {
		answer(http.StatusMethodNotAllowed, importAnswer{Error: "post the model"})
		return
	}
	if c.opts.ConfigDir == "" {
		answer(http.StatusServiceUnavailable, importAnswer{Error: "this Yui has no config folder to keep looks in"})
		return
	}
	name := r.URL.Query().Get("name")
	if r.ContentLength > lookfolder.MaxModelBytes {
		c.log.Warn("look_import_refused", "file", cutLog(name), "err", "too large")
		answer(http.StatusRequestEntityTooLarge, importAnswer{Error: fmt.Sprintf("the file is too large (%d MiB; a VRM look is at most %d MiB)", r.ContentLength>>20, lookfolder.MaxModelBytes>>20)})
		return
	}
	body := http.MaxBytesReader(w, r.Body, lookfolder.MaxModelBytes+1)
	id, label, err := lookfolder.ImportVRM(c.opts.ConfigDir, name, body, Looks)
	if err != nil {
		c.log.Warn("look_import_refused", "file", cutLog(name), "err", err.Error())
		answer(http.StatusUnprocessableEntity, importAnswer{Error: err.Error()})
		return
	}
	c.log.Info("look_imported", "look", id, "file", cutLog(name))
	c.publishSettingsState()
	answer(http.StatusOK, importAnswer{OK: true, Look: id, Name: label})
}

// onLookMessage handles the VRM look's page messages.
func (c *Core) onLookMessage(peer view.Peer, m view.Message) {
	malformed := func(err error) { c.log.Warn("view_malformed", "type", m.Type, "err", err.Error()) }
	refuse := func(reason string) { c.log.Warn("view_refused", "type", m.Type, "role", peer.Role, "reason", reason) }
	switch m.Type {
	case view.TypeTouch:
		if peer.Role != view.RolePet {
			refuse("only a pet page is touched")
			return
		}
		var t view.Touch
		if err := json.Unmarshal(m.Body, &t); err != nil {
			malformed(err)
			return
		}
		c.touched(peer.Preset, t)
	case view.TypeLookFailed:
		if peer.Role != view.RolePet {
			refuse("only a pet page draws a look")
			return
		}
		var f view.LookFailed
		if err := json.Unmarshal(m.Body, &f); err != nil {
			malformed(err)
			return
		}
		c.log.Warn("look_fallback", "preset", peer.Preset, "look", cutLog(f.Look), "reason", cutLog(f.Reason))
		p, _ := c.presetNow(peer.Preset)
		c.view.Publish(peer.Preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: "look_fallback",
			Text: fmt.Sprintf("%s's VRM look cannot be shown here (%s), so she wears the built-in look.", p.Name, cutLog(f.Reason))}))
	case view.TypeLookThumbnail:
		if peer.Role != view.RoleSettings {
			refuse("only the settings page renders thumbnails")
			return
		}
		var th view.LookThumbnail
		if err := json.Unmarshal(m.Body, &th); err != nil {
			malformed(err)
			return
		}
		b, err := decodeDataURL(th.PNG)
		if err == nil {
			err = lookfolder.SetThumbnail(c.opts.ConfigDir, th.Look, b)
		}
		if err != nil {
			c.log.Warn("look_thumbnail_refused", "look", cutLog(th.Look), "err", err.Error())
			return
		}
		c.publishSettingsState()
	case view.TypeLookOptions:
		if peer.Role != view.RoleSettings {
			refuse("only the settings page changes a look's options")
			return
		}
		var o view.LookOptions
		if err := json.Unmarshal(m.Body, &o); err != nil {
			malformed(err)
			return
		}
		if err := lookfolder.SetOptions(c.opts.ConfigDir, o.Look, o.Breathing, o.TouchTurns); err != nil {
			c.log.Warn("look_options_refused", "look", cutLog(o.Look), "err", err.Error())
			return
		}
		c.log.Info("look_options", "look", o.Look, "breathing", o.Breathing, "touch_turns", o.TouchTurns)
		c.publishSettingsState()
		for _, p := range c.store.Get().Presets {
			if p.Look == o.Look && p.Enabled {
				c.publishLookArt(p.ID, p.Look)
			}
		}
	}
}

// touched logs a touch and, when the look's option says so and the last
// touch turn is TouchTurnGap ago, starts a turn (trigger: touch <where>).
func (c *Core) touched(preset string, t view.Touch) {
	if (t.Kind != "pat" && t.Kind != "poke") || (t.Where != "head" && t.Where != "body") {
		c.log.Warn("view_malformed", "type", view.TypeTouch, "err", "kind must be pat or poke, where head or body")
		return
	}
	p, ok := c.presetNow(preset)
	v := c.vrmFolder(p.Look)
	turn := ok && v != nil && v.TouchTurns
	if turn {
		c.vrm.mu.Lock()
		now := time.Now()
		if last, ok := c.vrm.touched[preset]; ok && now.Sub(last) < TouchTurnGap {
			turn = false
		} else {
			if c.vrm.touched == nil {
				c.vrm.touched = map[string]time.Time{}
			}
			c.vrm.touched[preset] = now
		}
		c.vrm.mu.Unlock()
	}
	c.log.Info("touch", "preset", preset, "kind", t.Kind, "where", t.Where, "turn", turn)
	if pt := c.pet(preset); turn && pt != nil {
		pt.sess.StartTurn("", clientctx.FromTouch(t.Where, t.Kind))
	}
}

func cutLog(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
