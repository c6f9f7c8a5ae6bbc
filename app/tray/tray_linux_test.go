package tray

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"yui/app/tray/traytest"
)

// testIcon is a 16x16 PNG with a different colour in each quadrant, so a
// mangled pixmap (swapped channels, rows) shows; its last quadrant is
// translucent (the host gets it opaque, see opaqueOrClear) but for one
// column that is nearly clear (the host gets it clear). want is what a
// host should see.
func testIcon(t *testing.T) (want *image.NRGBA, pngBytes []byte) {
	img := image.NewNRGBA(image.Rect(0, 0, 16, 16))
	want = image.NewNRGBA(img.Rect)
	cols := []color.NRGBA{{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 230, 213, 128}}
	for y := range 16 {
		for x := range 16 {
			c := cols[(y/8)*2+x/8]
			w := c
			w.A = 255
			if x == 15 && y >= 8 {
				c.A, w = 20, color.NRGBA{}
			}
			img.SetNRGBA(x, y, c)
			want.SetNRGBA(x, y, w)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return want, b.Bytes()
}

func TestNoSessionBusNoTray(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir()) // no bus socket in it
	_, err := Start(Options{Title: "Yui"})
	if !errors.Is(err, ErrNoSessionBus) {
		t.Fatalf("Start without a bus: %v, want ErrNoSessionBus", err)
	}
}

// The library keeps process-wide state, so each tray runs in a child
// process (this test binary with YUI_TRAY_CHILD=1): it reads JSON
// commands on stdin ({"menu":…} to Update, {"close":true}) and prints one
// line per action its menu called ("hide p-2", "mute", "quit"…).
func TestMain(m *testing.M) {
	if os.Getenv("YUI_TRAY_CHILD") == "" {
		os.Exit(m.Run())
	}
	icon, _ := os.ReadFile(os.Getenv("YUI_TRAY_ICON"))
	var menu Menu
	json.Unmarshal([]byte(os.Getenv("YUI_TRAY_MENU")), &menu)
	out := make(chan string, 16)
	say := func(s string) func() { return func() { out <- s } }
	acts := Actions{
		SetShown: func(id string, shown bool) {
			out <- map[bool]string{true: "show ", false: "hide "}[shown] + id
		},
		SetVoicesMuted:  func(on bool) { out <- map[bool]string{true: "mute", false: "unmute"}[on] },
		SetQuiet:        func(on bool) { out <- map[bool]string{true: "quiet", false: "chatty"}[on] },
		OpenSettings:    say("settings"),
		ResetPositions:  say("reset positions"),
		SetStartAtLogin: func(on bool) { out <- map[bool]string{true: "login on", false: "login off"}[on] },
		Quit:            say("quit"),
		Listen:          say("listen"),
	}
	go func() {
		for l := range out {
			fmt.Println(l)
		}
	}()
	tr, err := Start(Options{Icon: icon, Title: "Yui", Menu: menu, Actions: acts, OnOpen: say("opened")})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(3)
	}
	if _, err := Start(Options{Title: "again"}); err == nil {
		out <- "second tray started"
	}
	dec := json.NewDecoder(os.Stdin)
	for {
		var cmd struct {
			Menu  *Menu
			Close bool
		}
		if err := dec.Decode(&cmd); err != nil {
			break
		}
		if cmd.Menu != nil {
			tr.Update(*cmd.Menu)
		}
		if cmd.Close {
			tr.Close()
			tr.Close()
			tr.Update(menu) // after Close: nothing, no panic
			out <- "closed"
		}
	}
	os.Exit(0)
}

// child is a tray in its own process.
type child struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
}

func startChild(t *testing.T, addr string, icon []byte, menu Menu) *child {
	t.Helper()
	iconPath := t.TempDir() + "/icon.png"
	os.WriteFile(iconPath, icon, 0o600)
	mb, _ := json.Marshal(menu)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "YUI_TRAY_CHILD=1", "YUI_TRAY_ICON="+iconPath, "YUI_TRAY_MENU="+string(mb),
		"DBUS_SESSION_BUS_ADDRESS="+addr)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard // the library logs to stderr after the bus goes
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, in: in, lines: make(chan string, 16)}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	return c
}

func (c *child) send(t *testing.T, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		t.Fatal(err)
	}
}

func (c *child) next(t *testing.T, ctx context.Context) string {
	t.Helper()
	select {
	case s, ok := <-c.lines:
		if !ok {
			t.Fatal("the tray process ended")
		}
		return s
	case <-ctx.Done():
		t.Fatal("the tray process printed nothing")
		return ""
	}
}

// One tray (in its own process) is driven through everything: the icon and title a host sees, the menu, every
// item's action, updates in place and rebuilds, and Close.
func TestTrayOverDBus(t *testing.T) {
	addr := traytest.StartBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	w, err := traytest.NewWatcher(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	want, icon := testIcon(t)
	menu := Menu{
		Characters:            []Character{{ID: "p-1", Name: "Yui", Shown: true}, {ID: "p-2", Name: "Mio", Shown: true}},
		StartAtLoginAvailable: true,
	}
	tr := startChild(t, addr, icon, menu)
	update := func(m Menu) { tr.send(t, map[string]any{"menu": m}) }

	it, err := w.WaitItem(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The first read already has the icon and title: they were set before
	// the item was exported.
	title, err := it.Property(ctx, "Title")
	if err != nil || title.Value() != "Yui" {
		t.Fatalf("Title = %v, %v", title, err)
	}
	if id, _ := it.Property(ctx, "Id"); id.Value() != "Yui" {
		t.Fatalf("Id = %v", id)
	}
	img, err := it.Icon(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds() != want.Bounds() {
		t.Fatalf("icon %v, want %v", img.Bounds(), want.Bounds())
	}
	for y := range 16 {
		for x := range 16 {
			if g := img.At(x, y).(color.NRGBA); g != want.NRGBAAt(x, y) {
				t.Fatalf("icon pixel (%d,%d) = %v, want %v", x, y, g, want.NRGBAAt(x, y))
			}
		}
	}

	labels := func(want ...string) {
		t.Helper()
		items, err := it.WaitMenu(ctx, func(m []traytest.MenuItem) bool { return slices.Equal(traytest.Labels(m), want) })
		if err != nil {
			t.Fatalf("menu %q, want %q: %v", traytest.Labels(items), want, err)
		}
	}
	labels("[x] Yui", "[x] Mio", "---", "Listen", "[ ] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")

	click := func(label, want string) {
		t.Helper()
		if err := it.Click(ctx, label); err != nil {
			t.Fatal(err)
		}
		if g := tr.next(t, ctx); g != want {
			t.Fatalf("clicking %q did %q, want %q", label, g, want)
		}
	}
	click("Mio", "hide p-2")
	menu.Characters[1].Shown = false
	update(menu)
	labels("[x] Yui", "[ ] Mio", "---", "Listen", "[ ] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	click("Mio", "show p-2")
	click("Listen", "listen")
	click("Mute all voices", "mute")
	menu.VoicesMuted = true
	update(menu)
	labels("[x] Yui", "[ ] Mio", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	click("Mute all voices", "unmute")
	click("Quiet companion", "quiet")
	menu.Quiet = true
	update(menu)
	labels("[x] Yui", "[ ] Mio", "---", "Listen", "[x] Mute all voices", "[x] Quiet companion", "Settings…", "Reset positions", "[ ] Start at login", "---", "Quit Yui")
	click("Quiet companion", "chatty")
	menu.Quiet = false
	update(menu)
	click("Settings…", "settings")
	click("Reset positions", "reset positions")
	click("Start at login", "login on")
	menu.StartAtLogin = true
	update(menu)
	labels("[x] Yui", "[ ] Mio", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[x] Start at login", "---", "Quit Yui")
	click("Start at login", "login off")
	click("Quit Yui", "quit")
	// A host opening the menu asks for fresh state.
	if err := it.Opened(ctx); err != nil {
		t.Fatal(err)
	}
	if g := tr.next(t, ctx); g != "opened" {
		t.Fatalf("opening the menu did %q", g)
	}

	// A character added, one renamed: the menu is rebuilt in order.
	menu.Characters = append(menu.Characters, Character{ID: "p-3", Name: "Rin", Shown: true})
	menu.Characters[0].Name = "Yui-chan"
	update(menu)
	labels("[x] Yui-chan", "[ ] Mio", "[x] Rin", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[x] Start at login", "---", "Quit Yui")
	click("Rin", "hide p-3")
	// Renamed in place, then one removed, and no Start at login.
	menu.Characters[1].Name = "Mio-san"
	update(menu)
	labels("[x] Yui-chan", "[ ] Mio-san", "[x] Rin", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "[x] Start at login", "---", "Quit Yui")
	menu.Characters = menu.Characters[1:]
	menu.StartAtLoginAvailable = false
	update(menu)
	labels("[ ] Mio-san", "[x] Rin", "---", "Listen", "[x] Mute all voices", "[ ] Quiet companion", "Settings…", "Reset positions", "---", "Quit Yui")
	click("Mio-san", "show p-2")
	click("Quit Yui", "quit")

	// Close takes the item off the bus: its connection's name goes.
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.AddMatchSignal(dbus.WithMatchMember("NameOwnerChanged"), dbus.WithMatchArg(0, it.Service)); err != nil {
		t.Fatal(err)
	}
	gone := make(chan *dbus.Signal, 4)
	conn.Signal(gone)
	tr.send(t, map[string]any{"close": true})
	if g := tr.next(t, ctx); g != "closed" {
		t.Fatalf("after close: %q", g)
	}
	var has bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, it.Service).Store(&has); err != nil {
		t.Fatal(err)
	}
	for has {
		select {
		case sig := <-gone:
			if len(sig.Body) == 3 && sig.Body[2] == "" {
				has = false
			}
		case <-ctx.Done():
			t.Fatalf("the tray's connection %s is still on the bus", it.Service)
		}
	}
}
