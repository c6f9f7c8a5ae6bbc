//go:build e2e

package e2e

import (
	"context"
	"image"
	"net/http/httptest"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"yui/app/settings"
	"yui/app/x11"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// Issue 25, her life on the desktop, with the real binary under Xvfb (two
// RandR monitors) + xcompmgr + openbox, a real xterm and a push backend in
// the test: body_action sit_on_window app=xterm perches her on the
// xterm's top edge; windowmove's of the xterm move her within the lag
// (measured from the xterm frame's ConfigureNotify to her window's own);
// the next turn's body line says she sits on it; minimised, the xterm
// drops her to the screen's bottom edge; peek, move_to the second monitor,
// go_to_bed and a click that wakes her.

// followLag is the bound on the p95 lag of following a window.
const followLag = 50 * time.Millisecond

// startOpenbox runs openbox on d and returns once it manages the screen
// (_NET_SUPPORTING_WM_CHECK set on the root).
func (d *xDisplay) startOpenbox(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("openbox"); err != nil {
		t.Fatal("openbox is not installed (make test-deps)")
	}
	cmd := exec.Command("openbox", "--sm-disable")
	cmd.Env = d.env()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	root := xproto.Setup(c).DefaultScreen(c).Root
	a, _ := xproto.InternAtom(c, false, uint16(len("_NET_SUPPORTING_WM_CHECK")), "_NET_SUPPORTING_WM_CHECK").Reply()
	until(t, "openbox to manage the screen", 20*time.Millisecond, func() bool {
		select {
		case <-exited:
			t.Fatal("openbox exited")
		default:
		}
		p, err := xproto.GetProperty(c, false, root, a.Atom, xproto.AtomWindow, 0, 1).Reply()
		return err == nil && p.ValueLen > 0
	})
}

// client finds the top-level client of class app (x11.Clients).
func (d *xDisplay) client(t *testing.T, app string) (x11.Client, bool) {
	t.Helper()
	xd, err := x11.Open(d.name)
	if err != nil {
		t.Fatal(err)
	}
	defer xd.Close()
	cs, err := xd.Clients()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if strings.EqualFold(c.App, app) {
			return c, true
		}
	}
	return x11.Client{}, false
}

func frameRect(c x11.Client) image.Rectangle {
	return image.Rect(c.Frame.X, c.Frame.Y, c.Frame.X+c.Frame.W, c.Frame.Y+c.Frame.H)
}

// lifeBackend is a push backend in the test: it records hellos and turns.
type lifeBackend struct {
	srv   *pushserver.Server
	url   string
	hello chan push.Hello
	turns chan push.Turn
}

func newLifeBackend(t *testing.T) *lifeBackend {
	t.Helper()
	b := &lifeBackend{hello: make(chan push.Hello, 8), turns: make(chan push.Turn, 8)}
	b.srv = pushserver.New(pushserver.Config{Key: "life-key", Hooks: pushserver.Hooks{
		Connected: func(_ string, h push.Hello) { b.hello <- h },
		Turn:      func(_ string, tu push.Turn) { b.turns <- tu },
	}})
	hs := httptest.NewServer(b.srv)
	t.Cleanup(func() { b.srv.Close(); hs.Close() })
	b.url = hs.URL
	return b
}

// call runs one client tool call on chat and returns its answer.
func (b *lifeBackend) call(t *testing.T, chat, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), e2eLimit)
	defer cancel()
	res, _, err := b.srv.CallTool(ctx, chat, "b-1", name, args)
	if err != nil {
		t.Fatalf("%s %v: %v", name, args, err)
	}
	t.Logf("%s %v → %s", name, args, res)
	return res
}

// frameOf is the child of the root holding w (the window manager's frame).
func frameOf(t *testing.T, c *xgb.Conn, w xproto.Window) xproto.Window {
	t.Helper()
	root := xproto.Setup(c).DefaultScreen(c).Root
	for range 16 {
		tr, err := xproto.QueryTree(c, w).Reply()
		if err != nil {
			t.Fatal(err)
		}
		if tr.Parent == root {
			return w
		}
		w = tr.Parent
	}
	return w
}

func TestE2EBodyActionOnADesktop(t *testing.T) {
	d := startXScreens(t, true, "1280x800", "1024x768")
	d.startOpenbox(t)
	backend := newLifeBackend(t)
	cfg, logs := t.TempDir(), t.TempDir()
	s := seedSettings(t, cfg, 900, screenH-winH)
	st, _, _ := settings.Open(cfg)
	st.Update(func(x *settings.Settings) {
		p := &x.Presets[0]
		p.ChatAPI, p.ChatBaseURL, p.Key, p.Voice.Engine = "push", backend.url, "life-key", "off"
	})
	chat := s.Presets[0].ChatID
	title := petTitle(s.Presets[0].Name)

	xt := exec.Command("xterm", "-geometry", "80x24+150+330", "-title", "xterm")
	xt.Env = d.env()
	if err := xt.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { xt.Process.Kill(); xt.Wait() })
	var term x11.Client
	until(t, "the xterm mapped and framed", 50*time.Millisecond, func() bool {
		var ok bool
		term, ok = d.client(t, "xterm")
		return ok && !term.Hidden && term.Frame.H > term.Rect.H
	})

	a := startApp(t, d, cfg, logs)
	a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	var hello push.Hello
	select {
	case hello = <-backend.hello:
	case <-time.After(e2eLimit):
		t.Fatal("no hello")
	}
	var names []string
	for _, tl := range hello.Tools {
		names = append(names, tl.Function.Name)
	}
	if !slices.Contains(names, "body_action") || !slices.Contains(names, "look") {
		t.Fatalf("hello.tools %v: main declares body_action and look", names)
	}
	win := d.awaitWindowAt(t, title, image.Pt(900, screenH-winH))
	d.awaitCharacter(t, win)

	// sit_on_window app=xterm: she stands (sits) on its top edge, centred.
	if res := backend.call(t, chat, "body_action", map[string]any{"action": "sit_on_window", "app": "xterm"}); res != "ok" {
		t.Fatalf("sit_on_window: %q", res)
	}
	f := frameRect(term)
	dx := f.Dx()/2 - 150
	perched := func(f image.Rectangle) image.Point { return image.Pt(f.Min.X+dx, f.Min.Y-380) }
	win = d.awaitWindowAt(t, title, perched(f))
	d.awaitLike(t, win, "life-sitting.png", 0.03, func() bool { return true })

	// The xterm moves: she follows each move within the lag.
	lags := d.measureFollow(t, term, title, perched)
	sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
	p95 := lags[(len(lags)*95+99)/100-1]
	t.Logf("follow lag over %d moves: min %v, median %v, p95 %v, max %v", len(lags), lags[0], lags[len(lags)/2], p95, lags[len(lags)-1])
	if p95 >= followLag {
		t.Fatalf("follow lag p95 %v (moves %v), want under %v", p95, lags, followLag)
	}
	term, _ = d.client(t, "xterm")
	win = d.awaitWindowAt(t, title, perched(frameRect(term)))

	// The next turn's body line says where she sits.
	face := d.awaitCharacter(t, win)
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y), "click", "1")
	d.xdotool(t, "type", "hello")
	d.xdotool(t, "key", "Return")
	select {
	case tu := <-backend.turns:
		if !strings.Contains(tu.ClientContext, "\nbody: sitting on XTerm (for 0min)\n") {
			t.Fatalf("client_context:\n%s", tu.ClientContext)
		}
		backend.srv.SendRender(chat, push.Render{TurnID: tu.TurnID, Segments: []push.Segment{{Speech: "Comfy up here."}}})
		backend.srv.SendTurnEnd(chat, tu.TurnID, nil)
	case <-time.After(e2eLimit):
		t.Fatal("no turn")
	}
	// (The xterm's white below her feet reads as an open composer to
	// composerShown; the turn arriving is what shows the click worked.)
	d.xdotool(t, "key", "Escape") // the composer closes
	// Her reply's bubble shows, then hides: none is left for the
	// screenshots to come.
	d.awaitShot(t, win, "the reply's bubble", func(img *image.RGBA) bool { return countNear(img, 0xff, 0xfa, 0xf5, 2) > 1000 })
	d.awaitShot(t, win, "the bubble hidden", func(img *image.RGBA) bool { return countNear(img, 0xff, 0xfa, 0xf5, 2) < 200 })

	// Minimised, the xterm drops her onto the screen's bottom edge.
	d.xdotool(t, "windowminimize", strconv.Itoa(int(term.ID)))
	at := perched(frameRect(term))
	win = d.awaitWindowAt(t, title, image.Pt(at.X, screenH-winH))
	if got := backend.call(t, chat, "look", map[string]any{"at": "body"}); !strings.Contains(got, `"posture":"standing"`) || !strings.Contains(got, `"perched_on":null`) {
		t.Fatalf("look at body after the landing: %s", got)
	}

	// peek left: she slides to the left edge, 72 px of her body showing.
	if res := backend.call(t, chat, "body_action", map[string]any{"action": "peek", "side": "left"}); res != "ok" {
		t.Fatalf("peek: %q", res)
	}
	win = d.awaitWindowAt(t, title, image.Pt(-240+72, screenH-winH))
	d.awaitLike(t, win.Intersect(image.Rect(0, 0, screenW, screenH)), "life-peeking.png", 0.03, func() bool { return true })

	// move_to the second monitor's centre: a walk across monitors.
	if res := backend.call(t, chat, "body_action", map[string]any{"action": "move_to", "spot": "center", "monitor": 1}); res != "ok" {
		t.Fatalf("move_to: %q", res)
	}
	win = d.awaitWindowAt(t, title, image.Pt((1280+16+1280+1024-16-180)/2-60, (16+768-16-216)/2-164))
	if got := backend.call(t, chat, "look", map[string]any{"at": "body"}); !strings.Contains(got, `"monitor":1`) {
		t.Fatalf("look at body on the second monitor: %s", got)
	}

	// go_to_bed, then a click on her wakes her.
	if res := backend.call(t, chat, "body_action", map[string]any{"action": "go_to_bed"}); res != "ok" {
		t.Fatalf("go_to_bed: %q", res)
	}
	// Her figure, below where a bubble shows (a reply's bubble may still
	// be up: its hide timer is the page's).
	d.awaitLike(t, image.Rect(win.Min.X, win.Min.Y+176, win.Max.X, win.Max.Y), "life-asleep.png", 0.03, func() bool { return true })
	face = d.awaitCharacter(t, win)
	d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y), "click", "1")
	a.waitEvent(t, "the wake-up click", func(e map[string]any) bool {
		m, _ := e["message"].(map[string]any)
		return e["event"] == "view_in" && m["type"] == "body_menu" && m["action"] == "wake"
	})
	if got := backend.call(t, chat, "look", map[string]any{"at": "body"}); !strings.Contains(got, `"posture":"standing"`) {
		t.Fatalf("look at body after the click: %s", got)
	}
	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
}

// measureFollow moves the xterm with xdotool windowmove several times and
// returns, for each move, the time from the xterm frame's ConfigureNotify
// to her window's own, both read on one connection of the test's.
func (d *xDisplay) measureFollow(t *testing.T, term x11.Client, title string, perched func(image.Rectangle) image.Point) []time.Duration {
	t.Helper()
	c, err := xgb.NewConnDisplay(d.name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	petID, _, ok := d.visibleWindow(t, title)
	if !ok {
		t.Fatal("her window is not visible")
	}
	tf := frameOf(t, c, xproto.Window(term.ID))
	pf := frameOf(t, c, xproto.Window(petID))
	for _, w := range []xproto.Window{tf, pf} {
		if err := xproto.ChangeWindowAttributesChecked(c, w, xproto.CwEventMask, []uint32{xproto.EventMaskStructureNotify}).Check(); err != nil {
			t.Fatal(err)
		}
	}
	type ev struct {
		w      xproto.Window
		x, y   int
		wd, ht int
		at     time.Time
	}
	evs := make(chan ev, 256)
	var once sync.Once
	go func() {
		for {
			e, err := c.WaitForEvent()
			if e == nil && err == nil {
				once.Do(func() { close(evs) })
				return
			}
			if cn, ok := e.(xproto.ConfigureNotifyEvent); ok {
				evs <- ev{w: cn.Window, x: int(cn.X), y: int(cn.Y), wd: int(cn.Width), ht: int(cn.Height), at: time.Now()}
			}
		}
	}()
	// 40 moves, as a drag makes them: small steps there and back.
	var moves []image.Point
	for i := range 40 {
		k := i // 0…19, then back 18…-1: each move differs from the last
		if i >= 20 {
			k = 38 - i
		}
		moves = append(moves, image.Pt(200+16*k, 400+4*k))
	}
	var lags []time.Duration
	for _, m := range moves {
		d.xdotool(t, "windowmove", strconv.Itoa(int(term.ID)), strconv.Itoa(m.X), strconv.Itoa(m.Y))
		var t0 time.Time
		var want image.Point // where her frame goes for this move
		limit := time.After(e2eLimit)
	wait:
		for {
			select {
			case e, ok := <-evs:
				if !ok {
					t.Fatal("the X connection closed")
				}
				switch {
				case e.w == tf && t0.IsZero():
					t0 = e.at
					want = perched(image.Rect(e.x, e.y, e.x+e.wd, e.y+e.ht))
				case e.w == pf && !t0.IsZero() && image.Pt(e.x, e.y) == want:
					lags = append(lags, e.at.Sub(t0))
					break wait
				}
			case <-limit:
				t.Fatalf("her window did not follow the move to %v", m)
			}
		}
		// Settled where the move put her before the next one.
		cl, _ := d.client(t, "xterm")
		d.awaitWindowAt(t, title, perched(frameRect(cl)))
		for len(evs) > 0 {
			<-evs
		}
	}
	return lags
}
