package route

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"yui/app/view"
)

type said struct{ Text string }

func TestTableRoutesGuardsAndDecodes(t *testing.T) {
	var logs bytes.Buffer
	lg := slog.New(slog.NewJSONHandler(&logs, nil))
	tb := New(lg)
	var got []string
	tb.Add(Only(lg, Roles(view.RolePet), "only pets say", JSON(lg, func(p view.Peer, s said) {
		got = append(got, p.Preset+":"+s.Text)
	})), "say", "shout")
	msg := func(typ, body string) view.Message {
		return view.Message{Type: typ, Body: json.RawMessage(body)}
	}
	pet := view.Peer{Role: view.RolePet, Preset: "p-1"}
	tb.Serve(pet, msg("say", `{"type":"say","text":"hi"}`))
	tb.Serve(pet, msg("shout", `{"type":"shout","text":"HI"}`))
	tb.Serve(view.Peer{Role: view.RoleSettings}, msg("say", `{"type":"say","text":"no"}`))
	tb.Serve(pet, msg("say", `{"type":"say","text":3}`))
	tb.Serve(pet, msg("sing", `{"type":"sing"}`))
	if strings.Join(got, " ") != "p-1:hi p-1:HI" {
		t.Fatalf("handled %v", got)
	}
	for _, want := range []string{`"msg":"view_refused","type":"say","role":"settings","reason":"only pets say"`,
		`"msg":"view_malformed","type":"say"`, `"msg":"view_unknown","type":"sing","role":"pet"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("no %s in\n%s", want, logs.String())
		}
	}
	if ts := tb.Types(); strings.Join(ts, " ") != "say shout" {
		t.Fatalf("types %v", ts)
	}
}

func TestRoutingATypeTwicePanics(t *testing.T) {
	tb := New(slog.New(slog.DiscardHandler))
	tb.Add(func(view.Peer, view.Message) {}, "say")
	defer func() {
		if recover() == nil {
			t.Fatal("a second route for say was taken")
		}
	}()
	tb.Add(func(view.Peer, view.Message) {}, "say")
}
