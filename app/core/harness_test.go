package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/app/core/settingsui"
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
	switch role {
	case view.RoleShell:
		tok = st.c.wins.ShellToken(preset)
	case view.RoleMessage:
		tok = st.c.wins.MessagePageToken(preset)
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

// handled reports whether the core has received a message of type typ (a
// window's later messages are handled after it: the sentinel of
// docs/testing.md rule 5).
func (st *started) handled(typ string) bool {
	for _, l := range st.trace.lines() {
		if m, _ := l["message"].(map[string]any); l["event"] == "view_in" && m["type"] == typ {
			return true
		}
	}
	return false
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

// result waits for the settings_result of request id.
func (pr *pageReader) result(t *testing.T, id string) map[string]any {
	t.Helper()
	return pr.answer(t, view.TypeSettingsResult, id)
}

// answer waits for the message of type typ answering request id.
func (pr *pageReader) answer(t *testing.T, typ, id string) map[string]any {
	t.Helper()
	var res map[string]any
	pr.wait(t, typ+" "+id, func(all []map[string]any, _ map[string]map[string]any) bool {
		for _, m := range all {
			if m["type"] == typ && m["request_id"] == id {
				res = m
				return true
			}
		}
		return false
	})
	return res
}

func send(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond (a launched window, the supervisor's state, a file
// or log line) until it holds; hangLimit only bounds a hang.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func readFile(t *testing.T, dir string) settings.Settings {
	t.Helper()
	b, err := os.ReadFile(dir + "/" + settings.FileName)
	if err != nil {
		t.Fatal(err)
	}
	s, err := settings.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// formOf turns the saved settings into the save request the settings page
// would send unchanged.
func formOf(s settings.Settings) view.SaveSettings {
	req := view.SaveSettings{RequestID: "r1", ActivePreset: s.ActivePreset}
	for _, p := range s.Presets {
		req.Presets = append(req.Presets, view.SavePreset{PresetFields: settingsui.Form(p).PresetFields})
	}
	return req
}

func saveMsg(req view.SaveSettings) map[string]any {
	b, _ := json.Marshal(req)
	var m map[string]any
	json.Unmarshal(b, &m)
	m["type"] = view.TypeSaveSettings
	return m
}

// withoutAPI makes the core run as a build without chat_api id would,
// for the test's length (every API of settings.ChatAPIs is built now).
func withoutAPI(t *testing.T, id string) {
	t.Helper()
	saved := AvailableChatAPIs
	AvailableChatAPIs = slices.DeleteFunc(slices.Clone(saved), func(a string) bool { return a == id })
	t.Cleanup(func() { AvailableChatAPIs = saved })
}

func bubbleSaid(all []map[string]any, part string) bool {
	for _, m := range all {
		if m["type"] == "bubble" && strings.Contains(fmt.Sprint(m["text"]), part) {
			return true
		}
	}
	return false
}
