//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"image"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// viewWatch is a second page connection to the core: it sees every sticky
// topic the pet page sees, so the test knows what the window is showing.
type viewWatch struct {
	mu  sync.Mutex
	all []map[string]any
}

func watchView(t *testing.T, ready map[string]any, preset string) *viewWatch {
	t.Helper()
	q := url.Values{"token": {ready["page_tokens"].(map[string]any)[preset].(string)}, "role": {"pet"}, "preset": {preset}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ready["view_url"].(string)+"?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	w := &viewWatch{}
	go func() {
		for {
			_, b, err := c.Read(context.Background())
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) == nil {
				w.mu.Lock()
				w.all = append(w.all, m)
				w.mu.Unlock()
			}
		}
	}()
	return w
}

// wait returns the first message (from index from on) matching pred, and
// the index after it.
func (w *viewWatch) wait(t *testing.T, what string, from int, pred func(map[string]any) bool) (map[string]any, int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		for i := from; i < len(w.all); i++ {
			if pred(w.all[i]) {
				m := w.all[i]
				w.mu.Unlock()
				return m, i + 1
			}
		}
		w.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s", what)
	return nil, 0
}

// compareShot compares a capture with the committed reference under
// docs/screenshots. Pixels differing by more than 40 levels in any channel
// count as different; up to maxDiff of them are tolerated (a blink or a
// mouth frame may differ). YUI_UPDATE_SCREENSHOTS=1 rewrites the reference.
func compareShot(t *testing.T, got *image.RGBA, name string, maxDiff float64) {
	t.Helper()
	ref := filepath.Join(repoRoot, "docs", "screenshots", name)
	if os.Getenv("YUI_UPDATE_SCREENSHOTS") == "1" {
		f, err := os.Create(ref)
		if err != nil {
			t.Fatal(err)
		}
		png.Encode(f, got)
		f.Close()
		t.Logf("wrote reference %s", ref)
		return
	}
	f, err := os.Open(ref)
	if err != nil {
		t.Fatalf("reference %s: %v (run with YUI_UPDATE_SCREENSHOTS=1 to create it)", ref, err)
	}
	want, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	gb, wb := got.Bounds(), want.Bounds()
	if gb.Dx() != wb.Dx() || gb.Dy() != wb.Dy() {
		t.Fatalf("%s: size %v, reference %v", name, gb.Size(), wb.Size())
	}
	diff := 0
	for y := 0; y < gb.Dy(); y++ {
		for x := 0; x < gb.Dx(); x++ {
			r1, g1, b1, _ := got.At(gb.Min.X+x, gb.Min.Y+y).RGBA()
			r2, g2, b2, _ := want.At(wb.Min.X+x, wb.Min.Y+y).RGBA()
			if absDiff(r1, r2) > 40 || absDiff(g1, g2) > 40 || absDiff(b1, b2) > 40 {
				diff++
			}
		}
	}
	frac := float64(diff) / float64(gb.Dx()*gb.Dy())
	t.Logf("%s: %.2f%% of pixels differ from the reference", name, 100*frac)
	if frac > maxDiff {
		t.Fatalf("%s differs from the reference in %.2f%% of pixels (tolerance %.2f%%); got %s", name, 100*frac, 100*maxDiff, savePNG(t, got, "got-"+name))
	}
}

func absDiff(a, b uint32) int {
	d := int(a>>8) - int(b>>8)
	if d < 0 {
		return -d
	}
	return d
}

// TestE2EPetScreens drives the real app on the embedded demo backend and
// compares the pet window in three states with committed references:
// idle, speaking with the bubble, thinking with the status pill.
func TestE2EPetScreens(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	wx, wy := 120, 100
	s := seedSettings(t, cfg, wx, wy)
	preset := s.Presets[0].ID
	win := image.Rect(wx, wy, wx+winW, wy+winH)
	d.backdrop(t, 0x5b7fa6) // a calm desktop blue

	a := startAppArgs(t, d, []string{"--config-dir", cfg, "--log-dir", logs, "--trace-view", "--demo-addr", "127.0.0.1:0"})
	ready := a.waitEvent(t, "core_ready", 10*time.Second, func(e map[string]any) bool { return e["event"] == "core_ready" })
	w := watchView(t, ready, preset)
	w.wait(t, "connected (plate hidden)", 0, func(m map[string]any) bool { return m["type"] == "plate" && m["kind"] == "" })

	var shot *image.RGBA
	deadline := time.Now().Add(30 * time.Second)
	for {
		shot = d.capture(t, win)
		if countNear(shot, skinR, skinG, skinB, 6) > 3000 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("character never painted: %s", savePNG(t, shot, "never-painted.png"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	time.Sleep(time.Second)
	idle := d.capture(t, win)
	compareShot(t, idle, "pet-idle.png", 0.02)

	face := findColorCentroid(t, idle, skinR, skinG, skinB)
	say := func(text string) {
		d.xdotool(t, "mousemove", strconv.Itoa(face.X), strconv.Itoa(face.Y), "click", "1")
		time.Sleep(500 * time.Millisecond)
		d.xdotool(t, "type", "--delay", "15", text)
		d.xdotool(t, "key", "Return")
		d.xdotool(t, "key", "Escape")
	}

	// Speaking: the demo's greeting has a long second sentence.
	mark := len(w.all)
	say("hello")
	_, _ = w.wait(t, "the second sentence playing", mark, func(m map[string]any) bool {
		return m["type"] == "bubble" && m["speaking"] == true && m["text"] == "I'm the demo backend, running right inside Yui."
	})
	time.Sleep(600 * time.Millisecond)
	compareShot(t, d.capture(t, win), "pet-speaking.png", 0.03)
	w.wait(t, "the reply done", mark, func(m map[string]any) bool { return m["type"] == "composer" && m["locked"] == false })
	time.Sleep(6 * time.Second) // the bubble hides

	// Thinking with the pill: a tool runs for 1.5 s.
	mark = len(w.all)
	say("check the weather")
	w.wait(t, "the tool running", mark, func(m map[string]any) bool {
		tool, _ := m["tool"].(map[string]any)
		return m["type"] == "pill" && tool != nil && tool["state"] == "running"
	})
	time.Sleep(500 * time.Millisecond)
	compareShot(t, d.capture(t, win), "pet-thinking.png", 0.03)
}
