package core

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"yui/app/capture"
	"yui/app/core/windows"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/view"
)

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
	t.Parallel() // real-time speech on its own core and demo backend
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
		// Each window gets its own shell token, never the page's, and the
		// UI language (docs/languages.md).
		if len(sp.Env) != 2 || sp.Env[0] != "YUI_CORE_TOKEN="+shellTok || !strings.HasPrefix(sp.Env[1], "YUI_LANG=") || seen[shellTok] {
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
	t.Parallel() // real-time speech on its own core and demo backend
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
