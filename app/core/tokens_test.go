package core

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/app/settings"
	"yui/app/view"
)

// dialToken dials the view server with token, role and preset as given.
func (st *started) dialToken(tok, role, preset string) (*websocket.Conn, *http.Response, error) {
	q := url.Values{"token": {tok}, "role": {role}, "preset": {preset}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return websocket.Dial(ctx, st.ready["view_url"].(string)+"?"+q.Encode(), nil)
}

// windowConfig connects as preset's shell and returns its window_config.
func (st *started) windowConfig(t *testing.T, preset string) view.WindowConfig {
	t.Helper()
	shell := st.dial(t, view.RoleShell, preset)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := shell.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var cfg view.WindowConfig
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestEachWindowHasItsOwnTokens: a window's shell token (its process's
// YUI_CORE_TOKEN) admits only its shell; the page token it gets in
// window_config admits only its page; the settings page's token reaches
// only the settings window's shell.
func TestEachWindowHasItsOwnTokens(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
	all := s.Get()
	a, b := all.Presets[0].ID, all.Presets[1].ID
	st := startCore(t, Options{ConfigDir: dir})

	petCfg := st.windowConfig(t, a)
	setCfg := st.windowConfig(t, "")
	if petCfg.PageToken == "" || setCfg.PageToken == "" || petCfg.PageToken == setCfg.PageToken {
		t.Fatalf("page tokens %q %q", petCfg.PageToken, setCfg.PageToken)
	}
	tokens := st.ready["page_tokens"].(map[string]any)
	if tokens[a] != petCfg.PageToken || tokens[view.RoleSettings] != setCfg.PageToken || tokens[b] == nil || tokens[b] == tokens[a] {
		t.Fatalf("trace page_tokens %v", tokens)
	}
	refused := []struct {
		what              string
		tok, role, preset string
	}{
		{"a pet page token as settings", petCfg.PageToken, view.RoleSettings, ""},
		{"a pet page token as another pet", petCfg.PageToken, view.RolePet, b},
		{"a pet page token as its shell", petCfg.PageToken, view.RoleShell, a},
		{"the settings page token as a pet", setCfg.PageToken, view.RolePet, a},
		{"the settings page token as a shell", setCfg.PageToken, view.RoleShell, ""},
		{"a pet shell token as its page", st.c.wins.ShellToken(a), view.RolePet, a},
		{"a pet shell token as settings", st.c.wins.ShellToken(a), view.RoleSettings, ""},
		{"a pet shell token as another shell", st.c.wins.ShellToken(a), view.RoleShell, b},
	}
	for _, r := range refused {
		c, resp, err := st.dialToken(r.tok, r.role, r.preset)
		if err == nil {
			c.CloseNow()
			t.Fatalf("%s: admitted", r.what)
		}
		if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%s: %v, want 403", r.what, resp)
		}
	}
	for _, ok := range []struct{ tok, role, preset string }{
		{petCfg.PageToken, view.RolePet, a},
		{setCfg.PageToken, view.RoleSettings, ""},
	} {
		c, _, err := st.dialToken(ok.tok, ok.role, ok.preset)
		if err != nil {
			t.Fatalf("%s page refused its own token: %v", ok.role, err)
		}
		c.CloseNow()
	}
	// Nothing of the settings page's token in a pet window's spec.
	if spec := st.c.wins.PetSpec(all.Presets[0]); strings.Contains(strings.Join(append(spec.Args, spec.Env...), " "), setCfg.PageToken) {
		t.Fatalf("the settings page token is in a pet window's spec %+v", spec)
	}
	if spec := st.c.wins.SettingsSpec(); spec.Env[0] != "YUI_CORE_TOKEN="+st.c.wins.ShellToken("") {
		t.Fatalf("settings window env %v", spec.Env)
	}
}

// TestRemovedPresetTokensAdmitNobody: switching a preset off revokes its
// window's tokens.
func TestRemovedPresetTokensAdmitNobody(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
	all := s.Get()
	mio := all.Presets[1]
	st := startCore(t, Options{ConfigDir: dir})
	pageTok, shellTok := st.c.wins.PageToken(mio.ID), st.c.wins.ShellToken(mio.ID)
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(st.c.store.Get())
	req.Presets[1].Enabled = false
	send(t, conn, saveMsg(req))
	if res := page.result(t, req.RequestID); res["ok"] != true {
		t.Fatalf("save %v", res)
	}
	for _, r := range []struct{ tok, role string }{{pageTok, view.RolePet}, {shellTok, view.RoleShell}} {
		c, resp, err := st.dialToken(r.tok, r.role, mio.ID)
		if err == nil {
			c.CloseNow()
			t.Fatalf("the %s token of a switched-off preset still admits", r.role)
		}
		if resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("%v, want 403", resp)
		}
	}
}
