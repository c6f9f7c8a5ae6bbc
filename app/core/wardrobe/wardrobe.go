// Package wardrobe is the core's room for what a character wears beyond
// the built-in looks: the VRM look's files served to her page over the
// view server (never a file path or an outside URL), the importer the
// settings page posts a .vrm to, a look's thumbnail and options, the
// page's fallback when it cannot draw the model, and touches — a pat or a
// poke that may start a turn (docs/looks.md). The catalog itself is
// app/core/looks.
package wardrobe

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"yui/app/clientctx"
	"yui/app/core/looks"
	"yui/app/core/route"
	"yui/app/lookfolder"
	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/view"
	"yui/transport/dataurl"
)

// TouchTurnGap is the least time between two turns touches start for one
// character (a user patting away does not flood the backend).
const TouchTurnGap = 10 * time.Second

// Store is the settings file.
type Store interface {
	Get() settings.Settings
	// Change applies fn and saves, or refuses (a bad value names its field).
	Change(fn func(*settings.Settings) error) error
}

// Pages is the view server.
type Pages interface {
	Publish(preset, topic string, m view.Message)
}

// Host is what the room asks of the core.
type Host interface {
	// StartTouchTurn starts a turn of preset id's character on a touch
	// (nothing when she does not run).
	StartTouchTurn(id string, trigger clientctx.Trigger)
	// LooksChanged is told a look was imported or changed (the settings
	// window lists it again).
	LooksChanged()
}

// Config makes a Room.
type Config struct {
	Store     Store
	Pages     Pages
	Host      Host
	Looks     looks.Catalog
	ConfigDir string // "" keeps no looks (nothing is imported)
	Logger    *slog.Logger
}

// Room is the wardrobe.
type Room struct {
	cfg Config
	log *slog.Logger

	mu      sync.Mutex
	touched map[string]time.Time // when each character's last touch turn started
}

// New makes the room.
func New(cfg Config) *Room {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Room{cfg: cfg, log: cfg.Logger, touched: map[string]time.Time{}}
}

// HTTPRoutes are the view server's routes for VRM looks.
func (r *Room) HTTPRoutes() map[string]view.Route {
	return map[string]view.Route{
		"/look/file":   {Roles: []string{view.RolePet, view.RoleSettings}, Serve: r.serveFile},
		"/look/import": {Roles: []string{view.RoleSettings}, Serve: r.serveImport},
	}
}

// serveFile serves a file of the VRM look the page's character wears now
// (the settings page: of any VRM look, for its thumbnail): model.vrm or
// one of its clips. Another look's files, or any other file, are refused
// (404).
func (r *Room) serveFile(w http.ResponseWriter, req *http.Request, g view.Grant) {
	if req.Method != http.MethodGet && req.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	q := req.URL.Query()
	look, file := q.Get("look"), q.Get("file")
	all := r.cfg.Store.Get()
	p, ok := all.Preset(g.Preset)
	if g.Role != view.RoleSettings && (!ok || p.Look != look) {
		r.log.Warn("look_file_refused", "preset", g.Preset, "look", cutLog(look), "reason", "not the character's look")
		http.NotFound(w, req)
		return
	}
	v := r.cfg.Looks.VRM(look)
	if v == nil {
		http.NotFound(w, req)
		return
	}
	path, ok := v.ModelPath(file)
	if !ok {
		r.log.Warn("look_file_refused", "preset", g.Preset, "look", look, "file", cutLog(file), "reason", "not a file of the look")
		http.NotFound(w, req)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		http.NotFound(w, req)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		http.NotFound(w, req)
		return
	}
	w.Header().Set("Content-Type", "model/gltf-binary")
	http.ServeContent(w, req, "", fi.ModTime(), f)
}

// ImportAnswer is /look/import's JSON answer.
type ImportAnswer struct {
	OK    bool   `json:"ok"`
	Look  string `json:"look,omitempty"`
	Name  string `json:"name,omitempty"`
	Error string `json:"error,omitempty"`
}

// serveImport makes a VRM look folder of the posted .vrm (the body; the
// file's name in ?name=). Whatever fails is answered with what is wrong;
// no character's look changes (the settings page selects the new look in
// its form, and a save applies it).
func (r *Room) serveImport(w http.ResponseWriter, req *http.Request, _ view.Grant) {
	answer := func(code int, a ImportAnswer) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(a)
	}
	if req.Method != http.MethodPost {
		answer(http.StatusMethodNotAllowed, ImportAnswer{Error: "post the model"})
		return
	}
	if r.cfg.ConfigDir == "" {
		answer(http.StatusServiceUnavailable, ImportAnswer{Error: "this Yui has no config folder to keep looks in"})
		return
	}
	name := req.URL.Query().Get("name")
	if req.ContentLength > lookfolder.MaxModelBytes {
		r.log.Warn("look_import_refused", "file", cutLog(name), "err", "too large")
		answer(http.StatusRequestEntityTooLarge, ImportAnswer{Error: fmt.Sprintf("the file is too large (%d MiB; a VRM look is at most %d MiB)", req.ContentLength>>20, lookfolder.MaxModelBytes>>20)})
		return
	}
	body := http.MaxBytesReader(w, req.Body, lookfolder.MaxModelBytes+1)
	id, label, err := lookfolder.ImportVRM(r.cfg.ConfigDir, name, body, looks.Builtin)
	if err != nil {
		r.log.Warn("look_import_refused", "file", cutLog(name), "err", err.Error())
		answer(http.StatusUnprocessableEntity, ImportAnswer{Error: err.Error()})
		return
	}
	r.log.Info("look_imported", "look", id, "file", cutLog(name))
	r.cfg.Host.LooksChanged()
	answer(http.StatusOK, ImportAnswer{OK: true, Look: id, Name: label})
}

// Routes registers the VRM look's page messages: a touch and the
// fallback from a pet page, a thumbnail and options from the settings
// page.
func (r *Room) Routes(t *route.Table) {
	lg := r.log
	pet, settingsPage := route.Roles(view.RolePet), route.Roles(view.RoleSettings)
	t.Add(route.Only(lg, pet, "only a pet page is touched",
		route.JSON(lg, func(p view.Peer, tc view.Touch) { r.Touched(p.Preset, tc) })), view.TypeTouch)
	t.Add(route.Only(lg, pet, "only a pet page draws a look",
		route.JSON(lg, func(p view.Peer, f view.LookFailed) { r.failed(p.Preset, f) })), view.TypeLookFailed)
	t.Add(route.Only(lg, settingsPage, "only the settings page renders thumbnails",
		route.JSON(lg, func(_ view.Peer, th view.LookThumbnail) { r.thumbnail(th) })), view.TypeLookThumbnail)
	t.Add(route.Only(lg, settingsPage, "only the settings page changes a look's options",
		route.JSON(lg, func(_ view.Peer, o view.LookOptions) { r.options(o) })), view.TypeLookOptions)
}

// failed is the page's report that it cannot draw her VRM look: she wears
// the built-in one, and a notice says why.
func (r *Room) failed(preset string, f view.LookFailed) {
	r.log.Warn("look_fallback", "preset", preset, "look", cutLog(f.Look), "reason", cutLog(f.Reason))
	all := r.cfg.Store.Get()
	p, _ := all.Preset(preset)
	r.cfg.Pages.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.NoticeOf("look_fallback",
		phrase.New("core.notice.look_fallback", "name", p.Name, "reason", cutLog(f.Reason)))))
}

func (r *Room) thumbnail(th view.LookThumbnail) {
	_, b, err := dataurl.Decode(th.PNG)
	if err == nil {
		err = lookfolder.SetThumbnail(r.cfg.ConfigDir, th.Look, b)
	}
	if err != nil {
		r.log.Warn("look_thumbnail_refused", "look", cutLog(th.Look), "err", err.Error())
		return
	}
	r.cfg.Host.LooksChanged()
}

func (r *Room) options(o view.LookOptions) {
	if o.Preset != "" {
		r.characterOptions(o)
		return
	}
	turns := o.TouchTurns == settings.LookOn
	if o.TouchTurns != settings.LookOn && o.TouchTurns != settings.LookOff {
		r.log.Warn("look_options_refused", "look", cutLog(o.Look), "err", "touch_turns must be on or off")
		return
	}
	if err := lookfolder.SetOptions(r.cfg.ConfigDir, o.Look, o.Breathing, turns); err != nil {
		r.log.Warn("look_options_refused", "look", cutLog(o.Look), "err", err.Error())
		return
	}
	r.log.Info("look_options", "look", o.Look, "breathing", o.Breathing, "touch_turns", turns)
	r.cfg.Host.LooksChanged()
	for _, p := range r.cfg.Store.Get().Presets {
		if p.Look == o.Look && p.Enabled {
			r.PublishArt(p.ID, p.Look)
		}
	}
}

// characterOptions saves a character's look options (settings validates
// them, naming the field it refuses) and shows them.
func (r *Room) characterOptions(o view.LookOptions) {
	var look string
	err := r.cfg.Store.Change(func(s *settings.Settings) error {
		for i := range s.Presets {
			if s.Presets[i].ID == o.Preset {
				s.Presets[i].LookOptions = settings.LookOptions{Breathing: o.Breathing, TouchTurns: o.TouchTurns}
				look = s.Presets[i].Look
				return nil
			}
		}
		return fmt.Errorf("no character %q", o.Preset)
	})
	if err != nil {
		r.log.Warn("look_options_refused", "preset", cutLog(o.Preset), "err", err.Error())
		return
	}
	r.log.Info("look_options", "preset", o.Preset, "breathing", o.Breathing, "touch_turns", o.TouchTurns)
	r.cfg.Host.LooksChanged()
	r.PublishArt(o.Preset, look)
}

// Touched logs a touch and, when the look's option says so and the last
// touch turn is TouchTurnGap ago, starts a turn (trigger: touch <where>).
func (r *Room) Touched(preset string, t view.Touch) {
	if (t.Kind != "pat" && t.Kind != "poke") || (t.Where != "head" && t.Where != "body") {
		r.log.Warn("view_malformed", "type", view.TypeTouch, "err", "kind must be pat or poke, where head or body")
		return
	}
	all := r.cfg.Store.Get()
	p, ok := all.Preset(preset)
	v := r.cfg.Looks.VRM(p.Look)
	turn := ok && v != nil && p.LookOptions.TouchTurnsOr(v.TouchTurns)
	if turn {
		r.mu.Lock()
		now := time.Now()
		if last, ok := r.touched[preset]; ok && now.Sub(last) < TouchTurnGap {
			turn = false
		} else {
			r.touched[preset] = now
		}
		r.mu.Unlock()
	}
	r.log.Info("touch", "preset", preset, "kind", t.Kind, "where", t.Where, "turn", turn)
	if turn {
		r.cfg.Host.StartTouchTurn(preset, clientctx.FromTouch(t.Where, t.Kind))
	}
}

func cutLog(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}
