//go:build e2e

package e2e

import (
	"image"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/app/settings"
	"yui/app/x11"
)

// Issue 25, what the user can do: dropping her while dragging onto a
// window's top edge perches her there, and dragging her off stands her
// up. The real binary under Xvfb + xcompmgr + openbox with a real xterm;
// the drag is xdotool's pointer on her window, so it takes the page's own
// drag path (the shell moves her window, the page reports the drop).

// dragHer presses on her at from, moves the pointer by delta in ten steps
// (as fast as xdotool runs: the page applies the moves made before it
// knows where its window is), and returns with the button still held.
func (d *xDisplay) dragHer(t *testing.T, from, delta image.Point) {
	t.Helper()
	d.xdotool(t, "mousemove", strconv.Itoa(from.X), strconv.Itoa(from.Y))
	d.xdotool(t, "mousedown", "1")
	for i := 1; i <= 10; i++ {
		p := from.Add(delta.Mul(i).Div(10))
		d.xdotool(t, "mousemove", strconv.Itoa(p.X), strconv.Itoa(p.Y))
	}
}

func TestE2EDragSnapsHerOntoAWindow(t *testing.T) {
	d := startX(t, true)
	d.startOpenbox(t)
	backend := newLifeBackend(t)
	cfg, logs := t.TempDir(), t.TempDir()
	start := image.Pt(900, screenH-winH)
	s := seedSettings(t, cfg, start.X, start.Y)
	st, _, _ := settings.Open(cfg)
	st.Update(func(x *settings.Settings) {
		p := &x.Presets[0]
		p.ChatAPI, p.ChatBaseURL, p.Key, p.Voice.Engine = "push", backend.url, "life-key", "off"
	})
	chat := s.Presets[0].ChatID
	title := petTitle(s.Presets[0].Name)
	look := func() string { return backend.call(t, chat, "look", map[string]any{"at": "body"}) }

	xt := exec.Command("xterm", "-geometry", "80x12+150+450", "-title", "xterm")
	xt.Env = d.env()
	if err := xt.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xt.Process.Kill(); xt.Wait() })
	term := d.awaitXterm(t)

	a := startApp(t, d, cfg, logs)
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	select {
	case <-backend.hello:
	case <-time.After(e2eLimit):
		t.Fatal("no hello")
	}
	win := d.awaitWindowAt(t, title, start)
	face := d.awaitCharacter(t, win)

	// Dragged so that her feet (the bottom centre of her body: 150, 380 in
	// her window) are 7 px below the xterm frame's top edge, 210 px in.
	f := frameRect(term)
	drop := image.Pt(f.Min.X+60, f.Min.Y-380+7)
	d.dragHer(t, face, drop.Sub(win.Min))
	// Held: her body says so.
	until(t, "look at body: dragging", 50*time.Millisecond, func() bool { return strings.Contains(look(), `"posture":"dragging"`) })
	d.xdotool(t, "mouseup", "1")
	ev := a.waitEvent(t, "the drop", func(e map[string]any) bool {
		m, _ := e["message"].(map[string]any)
		return e["event"] == "view_in" && m["type"] == "body_drag" && m["phase"] == "end"
	})
	// The page reports where she was let go: her window where the pointer
	// put it (the shell moved it there).
	if m := ev["message"].(map[string]any); m["x"] != float64(drop.X) || m["y"] != float64(drop.Y) {
		t.Fatalf("the drop reported at (%v, %v), want %v", m["x"], m["y"], drop)
	}
	// Let go: she sits on the edge (her seat on it, where she was let go
	// along it) and stays on the window.
	perched := func(f image.Rectangle) image.Point { return image.Pt(f.Min.X+60, f.Min.Y-380) }
	win = d.awaitWindowAt(t, title, perched(f))
	if got := look(); !strings.Contains(got, `"posture":"sitting"`) || !strings.Contains(got, `"perched_on":{"app":"XTerm"`) {
		t.Fatalf("look at body after the drop on the xterm: %s", got)
	}
	// On it: the xterm moves, she moves with it.
	d.xdotool(t, "windowmove", strconv.Itoa(int(term.ID)), "260", "500")
	until(t, "her window on the moved xterm", 50*time.Millisecond, func() bool {
		c, _ := d.client(t, "xterm")
		if frameRect(c).Min == f.Min {
			return false
		}
		term = c
		_, r, ok := d.visibleWindow(t, title)
		win = r
		return ok && r.Min == perched(frameRect(c))
	})

	// Dragged off (up and to the left, over no window's edge): she stands
	// where she was let go, on no window.
	face = d.awaitCharacter(t, win)
	off := image.Pt(-120, -60)
	d.dragHer(t, face, off)
	until(t, "look at body: dragging", 50*time.Millisecond, func() bool { return strings.Contains(look(), `"posture":"dragging"`) })
	d.xdotool(t, "mouseup", "1")
	let := win.Min.Add(off)
	until(t, "look at body: standing, on no window", 50*time.Millisecond, func() bool {
		got := look()
		return strings.Contains(got, `"posture":"standing"`) && strings.Contains(got, `"perched_on":null`)
	})
	d.awaitWindowAt(t, title, let)
	if got := look(); !strings.Contains(got, `"position":{"x":`+strconv.Itoa(let.X)+`,"y":`+strconv.Itoa(let.Y)+`}`) {
		t.Fatalf("look at body after the drag off: %s (let go at %v)", got, let)
	}
	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
}

// awaitXterm waits until the xterm is mapped and framed by the window
// manager and returns it.
func (d *xDisplay) awaitXterm(t *testing.T) (term x11.Client) {
	t.Helper()
	until(t, "the xterm mapped and framed", 50*time.Millisecond, func() bool {
		var ok bool
		term, ok = d.client(t, "xterm")
		return ok && !term.Hidden && term.Frame.H > term.Rect.H
	})
	return term
}
