package look_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"image"
	"image/jpeg"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/capture"
	"yui/app/jpegfit/jpegfittest"
	"yui/app/look"
	"yui/app/permission"
	"yui/app/settings"
	"yui/transport"
	"yui/transport/push"
)

var monitors = []capture.Monitor{
	{Index: 0, Label: "DP-1", Bounds: image.Rect(0, 0, 1280, 800)},
	{Index: 1, Label: "HDMI-1", Bounds: image.Rect(1280, 0, 1280+640, 480)},
}

type windowList []look.Window

func (w windowList) Windows() ([]look.Window, error) { return w, nil }

type promptLog struct {
	mu sync.Mutex
	p  []permission.Prompt
}

func (l *promptLog) add(p permission.Prompt) { l.mu.Lock(); l.p = append(l.p, p); l.mu.Unlock() }

func newTool(t *testing.T, mode string, body look.BodyState) (*look.Tool, *capture.Fixed, *permission.Gate, *promptLog) {
	t.Helper()
	src := &capture.Fixed{Screens: monitors}
	prompts := &promptLog{}
	gate := permission.New(permission.Config{Preset: "p-1", Backend: "demo", Permissions: settings.Permissions{Screen: mode}, OnPrompt: prompts.add})
	tool := look.New(look.Config{
		Body:   look.BodyFunc(func() look.BodyState { return body }),
		Screen: src,
		Gate:   gate,
		Windows: windowList{
			{App: "Firefox", Title: "Release notes", Rect: image.Rect(100, 100, 900, 700), Type: "normal"},
			{App: "yui", Title: "Yui — main", Rect: image.Rect(0, 0, 200, 200)},
			{App: "Helper", Title: "own pid", Rect: image.Rect(0, 0, 200, 200), PID: 4242},
			{App: "Panel", Title: "panel", Rect: image.Rect(0, 770, 1280, 800), Type: "dock"},
			{App: "Notes", Title: "Shopping", Rect: image.Rect(1300, 10, 1700, 300), Type: "dialog"},
			{App: "Gimp", Title: "minimised", Rect: image.Rect(10, 10, 300, 300), Hidden: true},
			{App: "Ghost", Title: "far away", Rect: image.Rect(5000, 5000, 5100, 5100)},
			{App: "", Title: "Untitled app", Rect: image.Rect(20, 20, 120, 120)},
		},
		OwnPIDs: []int{4242},
	})
	return tool, src, gate, prompts
}

func run(t *testing.T, tool *look.Tool, args string) (string, []string, error) {
	t.Helper()
	if err := tool.Validate(json.RawMessage(args)); err != nil {
		t.Fatalf("validate %s: %v", args, err)
	}
	return tool.Run(context.Background(), transport.ToolCall{ID: "c-1", TurnID: "1", Name: "look", Arguments: json.RawMessage(args)})
}

func TestSchemaIsTheSpecs(t *testing.T) {
	tool, _, _, _ := newTool(t, "ask", look.BodyState{})
	s := tool.Schema()
	var got, want any
	if err := json.Unmarshal(s.Parameters, &got); err != nil {
		t.Fatal(err)
	}
	spec := `{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]},
	  "monitor":{"type":"integer","description":"For screen: the display number used by body_action.monitor; omit for the character's display"}},
	  "required":["at"],"additionalProperties":false}`
	if err := json.Unmarshal([]byte(spec), &want); err != nil {
		t.Fatal(err)
	}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if s.Name != "look" || string(gb) != string(wb) ||
		s.Description != "Read body state, perch targets, or a display screenshot; screen requests require user permission" {
		t.Fatalf("schema %+v", s)
	}
	if tool.Wait().Seconds() != 2 {
		t.Fatalf("wait %v", tool.Wait())
	}
}

func TestValidation(t *testing.T) {
	tool, _, _, _ := newTool(t, "allow", look.BodyState{})
	for args, want := range map[string]string{
		`{}`:                             "missing field at",
		`{"monitor":0}`:                  "missing field at",
		`{"at":"sky"}`:                   "invalid field at",
		`{"at":3}`:                       "invalid field at",
		`{"at":null}`:                    "invalid field at",
		`{"at":"screen","monitor":"1"}`:  "invalid field monitor",
		`{"at":"screen","monitor":1.5}`:  "invalid field monitor",
		`{"at":"screen","monitor":-1}`:   "invalid field monitor",
		`{"at":"screen","monitor":null}`: "invalid field monitor",
		`{"at":"body","zoom":2}`:         "invalid field zoom",
		`{"at":"body"}`:                  "",
		`{"at":"perch_targets"}`:         "",
		`{"at":"screen","monitor":1}`:    "",
	} {
		err := tool.Validate(json.RawMessage(args))
		got := ""
		if err != nil {
			got = err.Error()
			var fe *push.FieldError
			if !errors.As(err, &fe) {
				t.Errorf("%s: %v is not a field error", args, err)
			}
		}
		if got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
}

func TestBody(t *testing.T) {
	body := look.BodyState{Position: look.Point{X: 300, Y: 650}, Monitor: 1, Posture: "sitting",
		PerchedOn: &look.Perch{App: "Firefox", Title: "Release notes"}}
	tool, _, _, _ := newTool(t, "ask", body)
	s, imgs, err := run(t, tool, `{"at":"body"}`)
	if err != nil || imgs != nil {
		t.Fatal(err)
	}
	want := `{"position":{"x":300,"y":650},"monitor":1,"posture":"sitting","perched_on":{"app":"Firefox","title":"Release notes"},"moving":false}`
	if s != want {
		t.Fatalf("body\n got %s\nwant %s", s, want)
	}
	tool, _, _, _ = newTool(t, "ask", look.BodyState{Moving: true})
	if s, _, _ := run(t, tool, `{"at":"body"}`); s != `{"position":{"x":0,"y":0},"monitor":0,"posture":"standing","perched_on":null,"moving":true}` {
		t.Fatal(s)
	}
}

func TestPerchTargets(t *testing.T) {
	tool, src, _, _ := newTool(t, "allow", look.BodyState{})
	s, _, err := run(t, tool, `{"at":"perch_targets"}`)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"windows":[` +
		`{"app":"Firefox","title":"Release notes","rect":{"x":100,"y":100,"width":800,"height":600},"monitor":0},` +
		`{"app":"Notes","title":"Shopping","rect":{"x":1300,"y":10,"width":400,"height":290},"monitor":1},` +
		`{"app":"Untitled app","title":"Untitled app","rect":{"x":20,"y":20,"width":100,"height":100},"monitor":0}],` +
		`"edges":[{"monitor":0,"label":"DP-1","side":"left","x":0,"top":0,"bottom":800},` +
		`{"monitor":0,"label":"DP-1","side":"right","x":1279,"top":0,"bottom":800},` +
		`{"monitor":1,"label":"HDMI-1","side":"left","x":1280,"top":0,"bottom":480},` +
		`{"monitor":1,"label":"HDMI-1","side":"right","x":1919,"top":0,"bottom":480}]}`
	if s != want {
		t.Fatalf("perch targets\n got %s\nwant %s", s, want)
	}
	if len(src.Taken()) != 0 {
		t.Fatal("perch targets captured the screen")
	}
	empty := look.New(look.Config{})
	if s, _, err := run(t, empty, `{"at":"perch_targets"}`); err != nil || s != `{"windows":[],"edges":[]}` {
		t.Fatal(s, err)
	}
}

func TestScreenAllowed(t *testing.T) {
	tool, src, _, _ := newTool(t, "allow", look.BodyState{Monitor: 1})
	s, imgs, err := run(t, tool, `{"at":"screen"}`)
	if err != nil || s != "ok" || len(imgs) != 1 || !strings.HasPrefix(imgs[0], "data:image/jpeg;base64,") {
		t.Fatalf("%q %d %v", s, len(imgs), err)
	}
	if s, _, _ := run(t, tool, `{"at":"screen","monitor":0}`); s != "ok" {
		t.Fatal(s)
	}
	if got := src.Taken(); len(got) != 2 || got[0] != 1 || got[1] != 0 {
		t.Fatalf("taken %v (default is the character's monitor)", got)
	}
	if s, imgs, err := run(t, tool, `{"at":"screen","monitor":2}`); s != "error: invalid field monitor" || imgs != nil || err != nil {
		t.Fatal(s, err)
	}
}

func TestScreenAskAndDeny(t *testing.T) {
	tool, src, gate, prompts := newTool(t, "ask", look.BodyState{Monitor: 1})
	if s, imgs, err := run(t, tool, `{"at":"screen"}`); s != "error: permission pending: asked the user" || imgs != nil || err != nil {
		t.Fatal(s, err)
	}
	if len(prompts.p) != 1 || prompts.p[0].Monitor != 1 || prompts.p[0].Backend != "demo" {
		t.Fatalf("prompts %+v", prompts.p)
	}
	if err := gate.Answer(prompts.p[0].ID, permission.Once); err != nil {
		t.Fatal(err)
	}
	if s, imgs, _ := run(t, tool, `{"at":"screen"}`); s != "ok" || len(imgs) != 1 {
		t.Fatal(s)
	}
	if s, _, _ := run(t, tool, `{"at":"screen"}`); s != "error: permission pending: asked the user" {
		t.Fatal(s)
	}
	gate.SetPermissions(settings.Permissions{Screen: "deny"})
	if s, imgs, err := run(t, tool, `{"at":"screen","monitor":0}`); s != "error: permission denied" || imgs != nil || err != nil {
		t.Fatal(s, err)
	}
	if got := src.Taken(); len(got) != 1 {
		t.Fatalf("captures without permission: %v", got)
	}
	noGate := look.New(look.Config{Screen: src})
	if s, _, _ := run(t, noGate, `{"at":"screen"}`); s != "error: permission denied" {
		t.Fatal(s)
	}
}

// TestScreenFitBoundedInTime: the screenshot's fit has half the client
// wait; with a clock that passes that bound after the first encode, the
// answer still comes, as a smaller image within the room, instead of
// after the wait. The clock moves per read, so the machine's speed does
// not matter.
func TestScreenFitBoundedInTime(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1e9, 0)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
	src := &capture.Fixed{Screens: monitors[:1], Draw: func(m capture.Monitor) *image.RGBA {
		return jpegfittest.Screenshot(m.Bounds.Dx(), m.Bounds.Dy(), 3)
	}}
	gate := permission.New(permission.Config{Preset: "p-1", Backend: "demo", Permissions: settings.Permissions{Screen: "allow"}})
	const room = 8 << 10
	run := func(now func() time.Time) (string, []string) {
		tool := look.New(look.Config{Screen: src, Gate: gate, Now: now})
		ctx := transport.WithImageRoom(context.Background(), room)
		s, imgs, err := tool.Run(ctx, transport.ToolCall{ID: "c-1", TurnID: "1", Name: "look", Arguments: json.RawMessage(`{"at":"screen"}`)})
		if err != nil || s != "ok" || len(imgs) != 1 || len(imgs[0]) > room {
			t.Fatalf("%q, %d images, %v", s, len(imgs), err)
		}
		return s, imgs
	}
	_, bounded := run(clock)
	// A clock that never moves: the bound never passes, whatever the
	// machine's speed.
	frozen := time.Unix(1e9, 0)
	_, full := run(func() time.Time { return frozen })
	wb, _ := jpegSize(t, bounded[0])
	wf, _ := jpegSize(t, full[0])
	if wb > 64 || wf <= wb {
		t.Fatalf("bounded fit %d px wide, unbounded %d: the bound did not cut the search short", wb, wf)
	}
}

func jpegSize(t *testing.T, u string) (int, int) {
	t.Helper()
	payload, ok := strings.CutPrefix(u, "data:image/jpeg;base64,")
	if !ok {
		t.Fatalf("not a JPEG data URL: %.40q", u)
	}
	img, err := jpeg.Decode(base64.NewDecoder(base64.StdEncoding, strings.NewReader(payload)))
	if err != nil {
		t.Fatal(err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}
