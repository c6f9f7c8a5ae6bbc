package windows

import (
	"encoding/json"
	"image"
	"slices"
	"strings"
	"sync"
	"testing"

	"yui/app/look"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

// server is the view server as the windows use it.
type server struct {
	mu      sync.Mutex
	grants  map[view.Grant]string
	revoked []view.Grant
	sent    []string // role/preset type
	configs []view.WindowConfig
	discons []string
}

func (s *server) URL() string { return "ws://127.0.0.1:1/view" }
func (s *server) Issue(g view.Grant) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.grants == nil {
		s.grants = map[view.Grant]string{}
	}
	if t, ok := s.grants[g]; ok {
		return t, nil
	}
	s.grants[g] = "tok-" + g.Role + "-" + g.Preset
	return s.grants[g], nil
}
func (s *server) Revoke(g view.Grant) { s.revoked = append(s.revoked, g) }
func (s *server) Send(role, preset string, m view.Message) {
	s.sent = append(s.sent, role+"/"+preset+" "+m.Type)
	if m.Type == view.TypeWindowConfig {
		var c view.WindowConfig
		json.Unmarshal(m.Body, &c)
		s.configs = append(s.configs, c)
	}
}
func (s *server) Disconnect(role, preset string) { s.discons = append(s.discons, role+"/"+preset) }

type sup struct {
	running map[string]bool
	stopped []string
}

func (s *sup) Run(spec supervisor.Spec) bool {
	if s.running[spec.Name] {
		return false
	}
	s.running[spec.Name] = true
	return true
}
func (s *sup) StopOne(name string) { s.stopped = append(s.stopped, name); delete(s.running, name) }

type host struct {
	p       settings.Preset
	running bool
	pages   []string
}

func (h *host) Running() bool                            { return h.running }
func (h *host) Preset(id string) (settings.Preset, bool) { return h.p, id == h.p.ID }
func (h *host) PetPosition(string) (image.Point, bool)   { return image.Pt(10, 20), true }
func (h *host) SettingsOpened() (image.Point, bool)      { return image.Point{}, false }
func (h *host) MessagePage(id string)                    { h.pages = append(h.pages, id) }

func TestSpecsTokensConfigsAndEnd(t *testing.T) {
	p := settings.NewPreset("Mio")
	srv, sv, h := &server{}, &sup{running: map[string]bool{}}, &host{p: p}
	w := New(Config{Server: srv, Supervisor: sv, Host: h, Exe: "/bin/yui", LogDir: "/logs"})
	spec := w.PetSpec(p)
	if args := strings.Join(spec.Args, " "); args != "window --role pet --preset "+p.ID+" --core ws://127.0.0.1:1/view --log-dir /logs" ||
		spec.Name != Pet(p.ID) || spec.Path != "/bin/yui" || !slices.Equal(spec.Env, []string{"YUI_CORE_TOKEN=tok-shell-" + p.ID}) || spec.Once {
		t.Fatalf("pet spec %+v", spec)
	}
	if s := w.SettingsSpec(); strings.Contains(strings.Join(s.Args, " "), "--preset") || !s.Once || s.Env[0] != "YUI_CORE_TOKEN=tok-shell-" {
		t.Fatalf("settings spec %+v", s)
	}
	// Not running: opening does nothing; running: starts, then shows.
	w.OpenSettings()
	h.running = true
	w.OpenSettings()
	w.OpenSettings()
	if !sv.running[Settings] || !slices.Contains(srv.sent, "shell/ window_show") {
		t.Fatalf("running %v, sent %v", sv.running, srv.sent)
	}
	w.OnConnect(view.Peer{Role: view.RoleShell, Preset: p.ID})
	w.OnConnect(view.Peer{Role: view.RoleMessageShell, Preset: p.ID})
	w.OnConnect(view.Peer{Role: view.RoleShell})
	w.OnConnect(view.Peer{Role: view.RoleMessage, Preset: p.ID})
	c := srv.configs
	if len(c) != 3 || c[0].Kind != view.WindowPet || c[0].Title != "Yui — Mio" || *c[0].X != 10 || c[0].PageToken != "tok-pet-"+p.ID ||
		c[1].Kind != view.WindowMessage || c[1].Title != "Yui — Mio — Messages" || c[1].PageToken != "tok-message-"+p.ID ||
		c[2].Kind != view.WindowSettings || c[2].Width != SettingsWidth || c[2].X != nil || c[2].PageToken != "tok-settings-" {
		t.Fatalf("configs %+v", c)
	}
	if !slices.Equal(h.pages, []string{p.ID}) {
		t.Fatalf("message pages %v", h.pages)
	}
	w.End(p.ID)
	if !slices.Equal(sv.stopped, []string{Pet(p.ID), Message(p.ID)}) || len(srv.revoked) != 4 || len(srv.discons) != 2 {
		t.Fatalf("stopped %v, revoked %v, disconnected %v", sv.stopped, srv.revoked, srv.discons)
	}
	if tok := w.PageTokens([]string{p.ID}); tok["settings"] != "tok-settings-" || tok[p.ID] != "tok-pet-"+p.ID || tok[Message(p.ID)] != "tok-message-"+p.ID {
		t.Fatalf("page tokens %v", tok)
	}
}

// The message window's title names the character once: the main one is
// usually called Yui, like the app (issue 21: "Yui — Yui — Messages").
func TestMessageWindowTitleNamesTheCharacterOnce(t *testing.T) {
	for name, want := range map[string]string{"Yui": "Yui — Messages", "yui ": "Yui — Messages", "": "Yui — Messages",
		"Mio": "Yui — Mio — Messages"} {
		if got := messageTitle(name); got != want {
			t.Errorf("messageTitle(%q) = %q, want %q", name, got, want)
		}
		if !strings.HasPrefix(messageTitle(name), look.OwnTitlePrefix) {
			t.Errorf("messageTitle(%q) does not start like Yui's windows", name)
		}
	}
}
