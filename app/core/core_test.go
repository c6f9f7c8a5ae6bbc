package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/app/capture"
	"yui/app/core/windows"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/supervisor/supervisortest"
	"yui/app/view"
)

// hangLimit bounds every wait in these tests. It only stops a hung test:
// each wait ends as soon as the awaited event (a trace line, a page
// message, a file, a launched window) is there, so no pass depends on how
// fast the machine is (docs/testing.md).
const hangLimit = 60 * time.Second

// bell rings whenever something a test watches changes. A waiter takes the
// channel, checks its condition, and waits for the channel to close before
// checking again, so no change between the check and the wait is lost.
type bell struct {
	mu sync.Mutex
	ch chan struct{}
}

// next returns a channel closed at the next ring.
func (b *bell) next() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch == nil {
		b.ch = make(chan struct{})
	}
	return b.ch
}

func (b *bell) ring() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ch != nil {
		close(b.ch)
		b.ch = nil
	}
}

// await returns once cond holds, re-checking it at every ring of b; it
// fails t if cond does not hold within hangLimit.
func (b *bell) await(t *testing.T, what string, cond func() bool) {
	t.Helper()
	limit := time.After(hangLimit)
	for {
		rang := b.next()
		if cond() {
			return
		}
		select {
		case <-rang:
		case <-limit:
			t.Fatalf("no %s within %v", what, hangLimit)
		}
	}
}

// recorder captures the core's trace lines.
type recorder struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	bell bell
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.bell.ring()
	return r.buf.Write(p)
}

func (r *recorder) lines() []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, l := range strings.Split(r.buf.String(), "\n") {
		var m map[string]any
		if json.Unmarshal([]byte(l), &m) == nil {
			out = append(out, m)
		}
	}
	return out
}

type started struct {
	c     *Core
	trace *recorder
	ready map[string]any
	stop  func() error
	// done receives Run's result once (stop takes it if a test did not).
	done chan error
}

func startCore(t *testing.T, opts Options) *started {
	t.Helper()
	if opts.ConfigDir == "" {
		opts.ConfigDir = t.TempDir()
	}
	rec := &recorder{}
	opts.Trace = rec
	opts.NoWindows = opts.Launch == nil
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx) }()
	var once sync.Once
	var stopErr error
	st := &started{c: c, trace: rec, done: done, stop: func() error {
		once.Do(func() {
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(hangLimit):
				stopErr = errors.New("core did not stop")
			}
		})
		return stopErr
	}}
	t.Cleanup(func() { st.stop() })
	rec.bell.await(t, "core_ready", func() bool {
		for _, l := range rec.lines() {
			if l["event"] == "core_ready" {
				st.ready = l
			}
		}
		return st.ready != nil
	})
	return st
}

func (st *started) dial(t *testing.T, role, preset string) *websocket.Conn {
	t.Helper()
	tok := st.c.wins.PageToken(preset)
	if role == view.RoleShell {
		tok = st.c.wins.ShellToken(preset)
	}
	q := url.Values{"token": {tok}, "role": {role}, "preset": {preset}}
	ctx, cancel := context.WithTimeout(context.Background(), hangLimit)
	defer cancel()
	c, _, err := websocket.Dial(ctx, st.ready["view_url"].(string)+"?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// windowLauncher starts window processes that do what a window's shell
// does with the core: each dials the view server with the role, preset
// and token its spec gives it, and exits when its connection ends (the
// core disconnected it, or ended) or it gets window_quit, or when it is
// signalled.
func windowLauncher() *supervisortest.Launcher {
	return &supervisortest.Launcher{Run: runShell}
}

func runShell(sp supervisor.Spec, p *supervisortest.Proc) {
	defer p.Exit()
	var role, preset, core string
	for i := 0; i+1 < len(sp.Args); i++ {
		switch sp.Args[i] {
		case "--role":
			role = sp.Args[i+1]
		case "--preset":
			preset = sp.Args[i+1]
		case "--core":
			core = sp.Args[i+1]
		}
	}
	shell := view.RoleShell
	if role == view.RoleMessage {
		shell = view.RoleMessageShell
	}
	token := strings.TrimPrefix(sp.Env[0], windows.TokenEnv+"=")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-p.Done() // signalled: the process ends, and its connection
		cancel()
	}()
	q := url.Values{"token": {token}, "role": {shell}, "preset": {preset}}
	c, _, err := websocket.Dial(ctx, core+"?"+q.Encode(), nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	for {
		_, b, err := c.Read(ctx)
		if err != nil || strings.Contains(string(b), `"type":"`+view.TypeWindowQuit+`"`) {
			return
		}
	}
}

// pageReader collects what a page receives, keeping the latest per type.
type pageReader struct {
	mu     sync.Mutex
	all    []map[string]any
	latest map[string]map[string]any
	bell   bell // rings on every message
}

// connectedPet opens the main character's pet page and waits until she is
// connected (no plate).
func (st *started) connectedPet(t *testing.T) (*websocket.Conn, *pageReader) {
	t.Helper()
	p := st.c.Settings().Get().Presets[0]
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "connected", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["plate"] != nil && l["plate"]["kind"] == ""
	})
	return conn, page
}

func readPage(c *websocket.Conn) *pageReader {
	pr := &pageReader{latest: map[string]map[string]any{}}
	go func() {
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var m map[string]any
			json.Unmarshal(b, &m)
			pr.mu.Lock()
			pr.all = append(pr.all, m)
			pr.latest[m["type"].(string)] = m
			pr.mu.Unlock()
			pr.bell.ring()
		}
	}()
	return pr
}

// messages returns every message so far, in order.
func (pr *pageReader) messages() []map[string]any {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return append([]map[string]any(nil), pr.all...)
}

// last returns the latest message of type typ (nil when none came).
func (pr *pageReader) last(typ string) map[string]any {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	return pr.latest[typ]
}

func (pr *pageReader) wait(t *testing.T, what string, pred func(all []map[string]any, latest map[string]map[string]any) bool) {
	t.Helper()
	limit := time.After(hangLimit)
	for {
		rang := pr.bell.next()
		pr.mu.Lock()
		ok := pred(pr.all, pr.latest)
		pr.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-rang:
		case <-limit:
			pr.mu.Lock()
			defer pr.mu.Unlock()
			t.Fatalf("timed out waiting for %s; latest %v", what, pr.latest)
		}
	}
}

func send(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
}

func TestShellGetsWindowConfigAndMovesAreSaved(t *testing.T) {
	dir := t.TempDir()
	// No monitor known: the window manager places a window never placed
	// (placement_test.go has the monitors).
	st := startCore(t, Options{ConfigDir: dir, Screen: &capture.Fixed{}})
	p := st.c.Settings().Get().Presets[0]
	shell := st.dial(t, view.RoleShell, p.ID)
	_, b, err := shell.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var cfg view.WindowConfig
	json.Unmarshal(b, &cfg)
	if cfg.Width != windows.PetWidth || cfg.Height != windows.PetHeight || cfg.X != nil || !strings.Contains(cfg.Title, p.Name) {
		t.Fatalf("config %s", b)
	}
	send(t, shell, map[string]any{"type": "window_position", "x": 321, "y": 123})
	waitFor(t, "the position saved", func() bool {
		w := readFile(t, dir).Presets[0].Window
		return w != nil && w.X == 321 && w.Y == 123
	})
	// The next shell of this preset opens where the window was left.
	shell2 := st.dial(t, view.RoleShell, p.ID)
	_, b, _ = shell2.Read(context.Background())
	json.Unmarshal(b, &cfg)
	if cfg.X == nil || *cfg.X != 321 || *cfg.Y != 123 {
		t.Fatalf("second config %s", b)
	}
}

func TestNotConfiguredPresetShowsSoAndRefusesNothingSilently(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets[0].ChatBaseURL = "" })
	st := startCore(t, Options{ConfigDir: dir})
	p := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RolePet, p.ID))
	page.wait(t, "not configured plate", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["plate"] != nil && l["plate"]["text"] == "not configured"
	})
	if l := page.last("preset"); l["name"] != "Yui" {
		t.Fatalf("preset %v", l)
	}
}

func TestTypedLineReachesDemoBackendAndReplyPlays(t *testing.T) {
	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	if u, _ := st.ready["demo_url"].(string); !strings.HasPrefix(u, "http://127.0.0.1:") {
		t.Fatalf("demo_url %v", st.ready["demo_url"])
	}
	p := st.c.Settings().Get().Presets[0]
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "ready (plate hidden)", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["plate"] != nil && l["plate"]["kind"] == ""
	})
	send(t, conn, map[string]any{"type": "send_text", "text": "hello there"})
	page.wait(t, "composer locked and thinking", func(all []map[string]any, _ map[string]map[string]any) bool {
		var locked, thinking bool
		for _, m := range all {
			locked = locked || (m["type"] == "composer" && m["locked"] == true)
			thinking = thinking || (m["type"] == "plate" && m["kind"] == "thinking")
		}
		return locked && thinking
	})
	page.wait(t, "a spoken sentence, then the composer unlocked", func(all []map[string]any, l map[string]map[string]any) bool {
		spoke := false
		for _, m := range all {
			spoke = spoke || (m["type"] == "bubble" && m["kind"] == "speech" && m["speaking"] == true && m["text"] != "")
		}
		return spoke && l["composer"]["locked"] == false && l["usage"] != nil
	})
	var emotions []string
	for _, m := range page.messages() {
		if m["type"] == "character" {
			emotions = append(emotions, m["emotion"].(string))
		}
	}
	if len(emotions) < 3 {
		t.Fatalf("character states %v", emotions)
	}
}

func TestWrongTokenPageGetsNothing(t *testing.T) {
	st := startCore(t, Options{})
	q := url.Values{"token": {"nope"}, "role": {"pet"}, "preset": {"x"}}
	_, resp, err := websocket.Dial(context.Background(), st.ready["view_url"].(string)+"?"+q.Encode(), nil)
	if err == nil || resp == nil || resp.StatusCode != 403 {
		t.Fatalf("err %v resp %v", err, resp)
	}
}

func TestCoreStartsOneWindowPerEnabledPresetWithTokenInEnv(t *testing.T) {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) {
		p := settings.NewPreset("Mio")
		q := settings.NewPreset("Off")
		q.Enabled = false
		x.Presets = append(x.Presets, p, q)
	})
	var mu sync.Mutex
	var specs []supervisor.Spec
	launch := func(sp supervisor.Spec) (supervisor.Process, error) {
		mu.Lock()
		specs = append(specs, sp)
		mu.Unlock()
		return windowLauncher().Launch(sp)
	}
	st := startCore(t, Options{ConfigDir: dir, Launch: launch, Exe: "/bin/yui-test"})
	waitFor(t, "two windows started", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(specs) >= 2
	})
	mu.Lock()
	if len(specs) != 2 {
		t.Fatalf("started %d windows, want 2", len(specs))
	}
	mu.Unlock()
	seen := map[string]bool{}
	for _, sp := range specs {
		args := strings.Join(sp.Args, " ")
		preset := sp.Args[len(sp.Args)-3]
		shellTok, pageTok := st.c.wins.ShellToken(preset), st.c.wins.PageToken(preset)
		if sp.Path != "/bin/yui-test" || !strings.HasPrefix(args, "window --role pet --preset p-") || strings.Contains(args, shellTok) || strings.Contains(args, pageTok) {
			t.Fatalf("spec %+v", sp)
		}
		// Each window gets its own shell token, never the page's.
		if len(sp.Env) != 1 || sp.Env[0] != "YUI_CORE_TOKEN="+shellTok || seen[shellTok] {
			t.Fatalf("env %v", sp.Env)
		}
		seen[shellTok] = true
	}
	if err := st.stop(); err != nil {
		t.Fatalf("stop: %v", err)
	}
}

func TestBadSettingsFileNoticeNamesField(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, settings.FileName), []byte(`{"version":1,"active_preset":"x","presets":[{"id":"p-0000000z"}]}`), 0o600)
	st := startCore(t, Options{ConfigDir: dir})
	p := st.c.Settings().Get().Presets[0]
	page := readPage(st.dial(t, view.RolePet, p.ID))
	page.wait(t, "notice", func(_ []map[string]any, l map[string]map[string]any) bool {
		n := l["notice"]
		return n != nil && strings.Contains(n["text"].(string), "presets[0].id") && strings.Contains(n["text"].(string), "settings.json.bad")
	})
}

func TestLookAtScreenAsksThenAlwaysIsSaved(t *testing.T) {
	dir := t.TempDir()
	screen := &capture.Fixed{Screens: []capture.Monitor{{Index: 0, Label: "DP-1", Bounds: image.Rect(0, 0, 640, 400)}}}
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0", Screen: screen})
	conn, page := st.connectedPet(t)
	// In ask mode the look call is answered "pending" and the prompt shows.
	send(t, conn, map[string]any{"type": "send_text", "text": "look at my screen"})
	var promptID float64
	page.wait(t, "the permission prompt", func(_ []map[string]any, l map[string]map[string]any) bool {
		pr := l["permission"]
		if pr == nil || pr["id"].(float64) == 0 {
			return false
		}
		promptID = pr["id"].(float64)
		return pr["monitor"].(float64) == 0 && pr["label"] == "DP-1" && strings.Contains(pr["text"].(string), "demo backend")
	})
	if n := len(screen.Taken()); n != 0 {
		t.Fatalf("captured %d times before any permission", n)
	}
	page.wait(t, "the turn to end", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["composer"]["locked"] == false
	})
	send(t, conn, map[string]any{"type": "permission_answer", "id": promptID, "answer": "always"})
	page.wait(t, "the prompt to close", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["permission"]["id"].(float64) == 0
	})
	waitFor(t, "always saved", func() bool {
		return readFile(t, dir).Presets[0].Permissions.Screen == "allow"
	})
	// Now the same request captures, without another prompt.
	send(t, conn, map[string]any{"type": "send_text", "text": "look at my screen again"})
	waitFor(t, "a capture after always", func() bool { return len(screen.Taken()) > 0 })
}

func TestImagesOnlyMessageTravelsAndARefusedImageKeepsNothing(t *testing.T) {
	st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0"})
	conn, page := st.connectedPet(t)
	png := "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPj/HwADAgH/eL9GtQAAAABJRU5ErkJggg=="
	bmp := "data:image/bmp;base64,Qk0AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
	// A refused second image refuses the message: no turn, a clear line.
	send(t, conn, map[string]any{"type": "send_text", "text": "two pictures", "images": []string{png, bmp}})
	page.wait(t, "the refusal", func(_ []map[string]any, l map[string]map[string]any) bool {
		e := l["error_line"]
		return e != nil && strings.Contains(e["text"].(string), "image 2")
	})
	// Images alone make a turn, and only they travel with it.
	send(t, conn, map[string]any{"type": "send_text", "text": "", "images": []string{png}})
	page.wait(t, "the demo thanking for one picture", func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == "bubble" && m["text"] == "Thanks, I got a picture!" {
				return true
			}
		}
		return false
	})
}

// A busy demo port must not break a first run: the embedded demo listens
// on a free loopback port and the demo preset talks to it there.
func TestDemoBackendMovesOffABusyPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	st := startCore(t, Options{Demo: true, DemoAddr: busy.Addr().String()})
	u, _ := st.ready["demo_url"].(string)
	if !strings.HasPrefix(u, "http://127.0.0.1:") || u == "http://"+busy.Addr().String() {
		t.Fatalf("demo_url %q (busy %s)", u, busy.Addr())
	}
	p := st.c.Settings().Get().Presets[0]
	if got := st.c.endpoint(p.ID); got != u {
		t.Fatalf("demo preset endpoint %q, want %q", got, u)
	}
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "connected to the moved demo (plate hidden)", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["plate"] != nil && l["plate"]["kind"] == ""
	})
}

// Answering the prompt starts a turn on the user's behalf (trigger
// "permission screen …"): allowed once, the demo looks again and the
// capture happens without the user asking again; denied, she says so
// kindly and nothing is captured. No bubble ever shows raw "error:" text.
func TestPermissionAnswerStartsTheFollowUpTurn(t *testing.T) {
	for _, answer := range []string{"once", "deny"} {
		t.Run(answer, func(t *testing.T) {
			screen := &capture.Fixed{Screens: []capture.Monitor{{Index: 0, Label: "DP-1", Bounds: image.Rect(0, 0, 640, 400)}}}
			st := startCore(t, Options{Demo: true, DemoAddr: "127.0.0.1:0", Screen: screen})
			conn, page := st.connectedPet(t)
			send(t, conn, map[string]any{"type": "send_text", "text": "look at my screen"})
			var promptID float64
			page.wait(t, "the prompt, and the pending look told in plain words", func(all []map[string]any, l map[string]map[string]any) bool {
				if pr := l["permission"]; pr != nil && pr["id"].(float64) != 0 {
					promptID = pr["id"].(float64)
				}
				return promptID != 0 && bubbleSaid(all, "Answer the little prompt")
			})
			page.wait(t, "the turn to end", func(_ []map[string]any, l map[string]map[string]any) bool {
				return l["composer"]["locked"] == false
			})
			send(t, conn, map[string]any{"type": "permission_answer", "id": promptID, "answer": answer})
			if answer == "once" {
				page.wait(t, "the follow-up look's thanks", func(all []map[string]any, _ map[string]map[string]any) bool {
					return bubbleSaid(all, "Thanks for the screenshot")
				})
				if n := len(screen.Taken()); n != 1 {
					t.Fatalf("captured %d times, want 1", n)
				}
			} else {
				page.wait(t, "the kind no", func(all []map[string]any, _ map[string]map[string]any) bool {
					return bubbleSaid(all, "I won't look at your screen")
				})
				if n := len(screen.Taken()); n != 0 {
					t.Fatalf("captured %d times after deny", n)
				}
			}
			for _, m := range page.messages() {
				if m["type"] == "bubble" && strings.Contains(fmt.Sprint(m["text"]), "error:") {
					t.Fatalf("a bubble showed raw error text: %v", m)
				}
			}
		})
	}
}

func bubbleSaid(all []map[string]any, part string) bool {
	for _, m := range all {
		if m["type"] == "bubble" && strings.Contains(fmt.Sprint(m["text"]), part) {
			return true
		}
	}
	return false
}
