//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/coder/websocket"

	"yui/app/settings"
)

// sendText types a line to a character as her pet page does.
func sendText(t *testing.T, ready map[string]any, preset, text string) {
	t.Helper()
	q := url.Values{"token": {ready["page_tokens"].(map[string]any)[preset].(string)}, "role": {"pet"}, "preset": {preset}}
	ctx, cancel := context.WithTimeout(context.Background(), e2eLimit)
	defer cancel()
	c, _, err := websocket.Dial(ctx, ready["view_url"].(string)+"?"+q.Encode(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	b, _ := json.Marshal(map[string]any{"type": "send_text", "text": text})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
	time.Sleep(0) // the write is done; closing the page is not a stop
}

// TestE2ETwoCharactersTalk: two characters on the demo backend, the user
// asks Yui to say hi to Mika; Mika answers in her own bubble (a turn with
// `trigger: character Yui` on her own socket), and the screen shows them
// talking (docs/screenshots/two-talking.png, YUI_E2E_SHOTS).
func TestE2ETwoCharactersTalk(t *testing.T) {
	d := startX(t, true)
	cfg, logs := t.TempDir(), t.TempDir()
	st, _, err := settings.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	baseURL, key := demoBackend(t, "4")
	if err := st.Update(func(x *settings.Settings) {
		x.Presets[0].ChatBaseURL, x.Presets[0].Key = baseURL, key
		mika := settings.NewPreset("Mika")
		mika.ChatBaseURL, mika.Key = baseURL, key
		x.Presets = append(x.Presets, mika)
		x.Talk = settings.Talk{MaxHops: 2}
	}); err != nil {
		t.Fatal(err)
	}
	s := st.Get()
	yui, mika := s.Presets[0], s.Presets[1]
	d.backdrop(t, 0x5b7fa6)
	a := startApp(t, d, cfg, logs)
	ready := a.waitEvent(t, "core_ready", func(e map[string]any) bool { return e["event"] == "core_ready" })
	wy, wm := watchView(t, ready, yui.ID), watchView(t, ready, mika.ID)
	t.Cleanup(func() {
		if t.Failed() {
			for _, w := range []*viewWatch{wy, wm} {
				w.mu.Lock()
				for _, m := range w.all {
					if m["type"] == "plate" || m["type"] == "bubble" {
						t.Logf("%v", m)
					}
				}
				w.mu.Unlock()
			}
			ls, _ := filepath.Glob(filepath.Join(logs, "*"))
			for _, l := range ls {
				b, _ := os.ReadFile(l)
				t.Logf("%s:\n%s", l, b)
			}
		}
	})
	for i, w := range []*viewWatch{wy, wm} {
		w.wait(t, s.Presets[i].Name+" connected (plate hidden)", 0, func(m map[string]any) bool { return m["type"] == "plate" && m["kind"] == "" })
	}
	var rs []image.Rectangle
	for _, p := range s.Presets {
		var r image.Rectangle
		until(t, p.Name+"'s window shown", 50*time.Millisecond, func() bool {
			var ok bool
			_, r, ok = d.visibleWindow(t, petTitle(p.Name))
			return ok
		})
		d.awaitCharacter(t, r)
		rs = append(rs, r)
	}
	mark := wm.mark()
	sendText(t, ready, yui.ID, "say hi to Mika")
	_, shown := wm.wait(t, "Mika thinking about Yui's words", mark, func(m map[string]any) bool {
		return m["type"] == "bubble" && m["kind"] == "filler"
	})
	wm.wait(t, "Mika answering Yui in her own bubble", shown, func(m map[string]any) bool {
		return m["type"] == "bubble" && m["speaking"] == true && m["text"] == "Oh, hi Yui!"
	})
	// Her window painted the speech bubble in place of the filler: the
	// paint settles on something other than the thinking frame.
	thinking := d.capture(t, rs[1])
	d.awaitStill(t, rs[1], "Mika's speech bubble painted", func(img *image.RGBA) bool {
		return !bytes.Equal(img.Pix, thinking.Pix)
	})
	area := rs[0].Union(rs[1])
	savePNG(t, d.capture(t, area), "two-talking.png")
	// Mika calls back (hop 2, the cap); Yui's next call is busy, and she
	// says so: the chain ends by itself.
	wy.wait(t, "Yui's chain ending kindly", 0, func(m map[string]any) bool {
		return m["type"] == "bubble" && m["text"] == "We've chatted enough for now, your turn!"
	})
	if err := a.terminate(t); err != nil {
		t.Fatalf("core exit: %v", err)
	}
}
