package life_test

import (
	"context"
	"encoding/json"
	"image"
	"log/slog"
	"sync"
	"testing"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/app/capture"
	"yui/app/core/life"
	"yui/app/core/route"
	"yui/app/look"
	"yui/app/perch"
	"yui/app/view"
	"yui/app/view/viewtest"
)

// desk is a fake desktop: a window list the test changes, and a watch
// per window that hears each change the test makes, at once.
type desk struct {
	mu       sync.Mutex
	wins     []look.Window
	watchers map[uint64][]chan perch.Change
	watches  int // watches started
}

func (d *desk) Windows() ([]look.Window, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]look.Window(nil), d.wins...), nil
}

func (d *desk) Watch(ctx context.Context, id uint64, fn func(perch.Change)) error {
	ch := make(chan perch.Change, 64)
	d.mu.Lock()
	if d.watchers == nil {
		d.watchers = map[uint64][]chan perch.Change{}
	}
	d.watchers[id] = append(d.watchers[id], ch)
	d.watches++
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		list := d.watchers[id]
		for i, c := range list {
			if c == ch {
				d.watchers[id] = append(list[:i], list[i+1:]...)
				break
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case c := <-ch:
			fn(c)
			if c.Gone {
				return nil
			}
		}
	}
}

// change updates window id with fn and tells its watches.
func (d *desk) change(id uint64, fn func(w *look.Window) perch.Change) {
	d.mu.Lock()
	var ch perch.Change
	for i := range d.wins {
		if d.wins[i].ID == id {
			ch = fn(&d.wins[i])
		}
	}
	if ch.Gone {
		for i := range d.wins {
			if d.wins[i].ID == id {
				d.wins = append(d.wins[:i], d.wins[i+1:]...)
				break
			}
		}
	}
	ws := append([]chan perch.Change(nil), d.watchers[id]...)
	d.mu.Unlock()
	for _, c := range ws {
		c <- ch
	}
}

func (d *desk) move(id uint64, to image.Point) {
	d.change(id, func(w *look.Window) perch.Change {
		w.Frame = image.Rectangle{Min: to, Max: to.Add(w.Frame.Size())}
		w.Rect = w.Frame
		return perch.Change{Frame: w.Frame}
	})
}

func (d *desk) live() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, l := range d.watchers {
		n += len(l)
	}
	return n
}

type host struct{ at image.Point }

func (h host) Place(string) (image.Point, bool) { return h.at, true }

var monitors = []capture.Monitor{
	{Index: 0, Label: "DP-1", Bounds: image.Rect(0, 0, 1920, 1080)},
	{Index: 1, Label: "HDMI-1", Bounds: image.Rect(1920, 0, 1920+1280, 1024)},
}

// Windows on the fake desktop (bottom to top).
const (
	xterm uint64 = 0x400001 + iota
	editor
	own
)

func win(id uint64, app string, r image.Rectangle) look.Window {
	return look.Window{ID: id, App: app, Title: app + " window", Rect: r, Frame: r, Type: "normal"}
}

type env struct {
	room  *life.Room
	desk  *desk
	pages *viewtest.Pages
	rt    *route.Table
	actor bodyaction.Actor
}

// start is where she stands: her window's top-left, feet on DP-1's floor
// at x 800+150.
var start = image.Pt(800, 1080-420)

func newEnv(t *testing.T) *env {
	t.Helper()
	d := &desk{wins: []look.Window{
		win(xterm, "XTerm", image.Rect(300, 500, 900, 900)),
		win(editor, "Editor", image.Rect(1000, 600, 1600, 1000)),
		{ID: own, App: "yui", Title: "Yui — settings", Rect: image.Rect(100, 300, 700, 800), Frame: image.Rect(100, 300, 700, 800), PID: 77},
	}}
	e := &env{desk: d, pages: &viewtest.Pages{}, rt: route.New(slog.New(slog.DiscardHandler))}
	e.room = life.New(life.Config{Pages: e.pages, Host: host{at: start}, Screen: &capture.Fixed{Screens: monitors},
		Desktop: d, OwnPIDs: []int{77}})
	e.room.Routes(e.rt)
	e.actor = e.room.Actor("p-1")
	t.Cleanup(func() { e.room.Remove("p-1") })
	return e
}

func (e *env) act(a bodyaction.Action) string { return e.actor.Act(context.Background(), a) }

// goAct runs a in the background; the answer comes on the channel.
func (e *env) goAct(ctx context.Context, a bodyaction.Action) <-chan string {
	out := make(chan string, 1)
	go func() { out <- e.actor.Act(ctx, a) }()
	return out
}

func (e *env) state() body.State { return e.room.Body("p-1") }

func (e *env) page(typ string, v any) {
	b, _ := json.Marshal(v)
	m := map[string]any{}
	json.Unmarshal(b, &m)
	m["type"] = typ
	b, _ = json.Marshal(m)
	e.rt.Serve(view.Peer{Role: view.RolePet, Preset: "p-1"}, view.Message{Type: typ, Body: b})
}

// lastStep is the last place her shell was told (window_step or
// window_move).
func (e *env) lastStep(t *testing.T) (image.Point, string) {
	t.Helper()
	var at image.Point
	typ := ""
	for _, m := range e.pages.Got(view.RoleShell, "p-1") {
		at = image.Pt(int(m["x"].(float64)), int(m["y"].(float64)))
		typ = m["type"].(string)
	}
	return at, typ
}
