package console_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/capture"
	"yui/app/console"
	"yui/app/settings"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// newImageBackend is newBackend with max_turn_bytes stated in ready.
func newImageBackend(t *testing.T, maxTurnBytes int) *backend {
	t.Helper()
	b := &backend{turns: make(chan push.Turn, 16), stops: make(chan []string, 16), chats: make(chan string, 16)}
	b.srv = pushserver.New(pushserver.Config{Key: e2eKey, Source: "e2e", MaxTurnBytes: maxTurnBytes, Hooks: pushserver.Hooks{
		Connected: func(chatID string, _ push.Hello) { b.chats <- chatID },
		Turn:      func(_ string, tu push.Turn) { b.turns <- tu },
	}})
	b.http = httptest.NewServer(b.srv)
	t.Cleanup(func() { b.srv.Close(); b.http.Close() })
	return b
}

// noisyRGBA compresses badly, like a busy screen.
func noisyRGBA(w, h int, seed uint32) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		seed = seed*1664525 + 1013904223
		img.Pix[i] = uint8(seed >> 24)
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	return img
}

func checkJPEGURL(t *testing.T, u string) image.Image {
	t.Helper()
	payload, ok := strings.CutPrefix(u, "data:image/jpeg;base64,")
	if !ok {
		t.Fatalf("not a JPEG data URL: %.40s", u)
	}
	b, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	img, err := jpeg.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestConsoleAttachBigImageFitted: `yui console --json --url … /attach
// big.png` against a backend stating max_turn_bytes: the turn frame the
// backend receives is under the cap and carries JPEG data URLs.
func TestConsoleAttachBigImageFitted(t *testing.T) {
	const limit = 200 << 10
	dir, logs := t.TempDir(), t.TempDir()
	big := filepath.Join(t.TempDir(), "big.png")
	var buf bytes.Buffer
	must(t, png.Encode(&buf, noisyRGBA(1920, 1080, 5)))
	if buf.Len() < 4*limit {
		t.Fatalf("big.png is only %d bytes", buf.Len())
	}
	must(t, os.WriteFile(big, buf.Bytes(), 0o600))
	b := newImageBackend(t, limit)
	c := startConsole(t, "--json", "--config-dir", dir, "--log-dir", logs, "--url", b.http.URL, "--key", e2eKey, "--speech-rate", "0")
	c.waitEvent("socket", map[string]any{"state": "ready"})
	chatID := chatOf(t, b)
	c.line("/attach " + big)
	c.line("what is in this picture?")
	c.waitEvent("turn_sent", map[string]any{"text": "what is in this picture?"})
	tu := recvTurn(t, b)
	frame, err := push.Encode(tu)
	must(t, err)
	if len(frame) > limit {
		t.Fatalf("turn frame %d bytes, cap %d", len(frame), limit)
	}
	if len(tu.Images) != 1 {
		t.Fatalf("%d images", len(tu.Images))
	}
	img := checkJPEGURL(t, tu.Images[0])
	t.Logf("turn frame %d bytes (cap %d); image %v", len(frame), limit, img.Bounds())
	must(t, b.srv.SendTurnEnd(chatID, tu.TurnID, nil))
	c.waitEvent("turn_end", map[string]any{"turn_id": tu.TurnID})
	c.finish()
}

// startRun is startConsole for console.Run with options Main has no
// flags for.
func startRun(t *testing.T, o console.Options) *consoleRun {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &consoleRun{t: t, stdin: inW, events: make(chan map[string]any, 1024), exit: make(chan int, 1)}
	go func() {
		code := 0
		if err := console.Run(context.Background(), o, inR, outW); err != nil {
			code = 1
			c.stderr.WriteString(err.Error())
		}
		outW.Close()
		c.exit <- code
	}()
	go func() {
		defer close(c.events)
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("stdout line is not JSON: %q", sc.Text())
				continue
			}
			c.events <- m
		}
	}()
	t.Cleanup(func() { inW.Close() })
	return c
}

// TestConsoleLookScreenPermission: a look screen call in ask mode answers
// pending and prints a prompt; /allow once lets the next call capture
// (a fitted JPEG in tool_result.images); /allow always is saved.
func TestConsoleLookScreenPermission(t *testing.T) {
	const limit = 128 << 10
	dir, logs := t.TempDir(), t.TempDir()
	b := newImageBackend(t, limit)
	// A small noisy screen: what is tested is the permission flow, and the
	// look tool answers within its 2 s client wait, so the capture and its
	// fit must be cheap even under the race detector on a busy machine
	// (that the fit is bounded in time on a big screen is app/look's and
	// app/jpegfit's deadline tests).
	screen := &capture.Fixed{
		Screens: []capture.Monitor{{Index: 0, Label: "DP-1", Bounds: image.Rect(0, 0, 320, 200)}},
		Draw:    func(m capture.Monitor) *image.RGBA { return noisyRGBA(m.Bounds.Dx(), m.Bounds.Dy(), 9) },
	}
	c := startRun(t, console.Options{JSON: true, ConfigDir: dir, LogDir: logs, URL: b.http.URL, Key: e2eKey, Screen: screen})
	c.waitEvent("socket", map[string]any{"state": "ready"})
	chatID := chatOf(t, b)
	c.line("what is on my screen?")
	turnID := c.waitEvent("turn_sent", nil)["turn_id"].(string)
	recvTurn(t, b)

	call := func() (string, []string) {
		t.Helper()
		r, imgs, err := b.srv.CallTool(context.Background(), chatID, turnID, "look", map[string]any{"at": "screen"})
		must(t, err)
		return r, imgs
	}
	if r, imgs := call(); r != "error: permission pending: asked the user" || len(imgs) != 0 {
		t.Fatalf("first call: %q", r)
	}
	p := c.waitEvent("permission_prompt", map[string]any{"backend": b.http.URL, "label": "DP-1"})
	if p["monitor"] != float64(0) {
		t.Fatalf("prompt %v", p)
	}
	c.line("/allow once")
	c.waitEvent("permission_answered", map[string]any{"choice": "once"})
	// Each answer starts a turn of its own (the model hears it); the
	// backend ends every turn it got, so the console's drain at the end of
	// input has nothing to wait for (before: two turns no backend ended,
	// drained only by the 240 s frame wait).
	followUps := []push.Turn{recvTurn(t, b)}
	r, imgs := call()
	if r != "ok" || len(imgs) != 1 {
		t.Fatalf("after /allow once: %q, %d images", r, len(imgs))
	}
	checkJPEGURL(t, imgs[0])
	frame, err := push.Encode(push.ToolResult{ID: "c-xxxxxx", TurnID: turnID, Result: r, Images: imgs})
	must(t, err)
	if len(frame) > limit {
		t.Fatalf("tool_result frame %d bytes, cap %d", len(frame), limit)
	}
	if r, _ := call(); r != "error: permission pending: asked the user" {
		t.Fatalf("once was not used up: %q", r)
	}
	c.waitEvent("permission_prompt", nil)
	c.line("/allow always")
	c.waitEvent("permission_answered", map[string]any{"choice": "always"})
	followUps = append(followUps, recvTurn(t, b))
	for i, want := range []string{"trigger: permission screen allowed once", "trigger: permission screen allowed always"} {
		if !strings.Contains(followUps[i].ClientContext, want) {
			t.Fatalf("follow-up turn %d: %q, want %q", i, followUps[i].ClientContext, want)
		}
	}
	if r, imgs := call(); r != "ok" || len(imgs) != 1 {
		t.Fatalf("after /allow always: %q", r)
	}
	c.line("/allow once") // no prompt open
	c.waitFor("no prompt note", func(m map[string]any) bool {
		return m["event"] == "error_line" && strings.Contains(m["text"].(string), "no screen permission prompt")
	})
	for _, id := range []string{turnID, followUps[0].TurnID, followUps[1].TurnID} {
		must(t, b.srv.SendTurnEnd(chatID, id, nil))
		c.waitEvent("turn_end", map[string]any{"turn_id": id})
	}
	c.finish()
	store, _, err := settings.Open(dir)
	must(t, err)
	s := store.Get()
	if p, _ := s.Preset(s.ActivePreset); p.Permissions.Screen != "allow" {
		t.Fatalf("saved screen permission %q", p.Permissions.Screen)
	}
	if got := len(screen.Taken()); got != 2 {
		t.Fatalf("%d captures, want 2", got)
	}
}
