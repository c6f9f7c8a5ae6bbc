package session_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	"yui/app/session"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// noisyPNG is a w×h PNG that compresses badly (a screenshot stand-in
// larger than any small cap).
func noisyPNG(t *testing.T, w, h int, seed uint32) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		seed = seed*1664525 + 1013904223
		img.Pix[i] = uint8(seed >> 24)
		if i%4 == 3 {
			img.Pix[i] = 255
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// jpegOf decodes a JPEG data URL.
func jpegOf(t *testing.T, u string) image.Image {
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

func frameSize(t *testing.T, tu push.Turn) int {
	t.Helper()
	b, err := push.Encode(tu)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func TestAttachmentsFittedIntoMaxTurnBytes(t *testing.T) {
	bubble(t, func(t *testing.T) {
		const limit = 64 << 10
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: limit}})
		p := filepath.Join(t.TempDir(), "big.png")
		e.must(os.WriteFile(p, noisyPNG(t, 900, 600, 1), 0o600))
		e.must(e.s.Attach(p))
		e.must(e.s.Attach(writeImage(t))) // 1×1, within its share
		e.send("what are these?")
		tu := e.Turns()
		if len(tu) != 1 || len(tu[0].Images) != 2 {
			t.Fatalf("turns %d", len(tu))
		}
		if n := frameSize(t, tu[0]); n > limit {
			t.Fatalf("turn frame %d bytes, cap %d", n, limit)
		}
		img := jpegOf(t, tu[0].Images[0])
		if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w > 900 || h > 600 || w*2 < h*3-3 || w*2 > h*3+3 {
			t.Fatalf("re-encoded %dx%d", w, h)
		}
		if tu[0].Images[1] != "data:image/png;base64,"+base64.StdEncoding.EncodeToString(pngBytes()) {
			t.Fatal("the small attachment was not passed through byte for byte")
		}
	})
}

func TestScreenshotFirstWithItsLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		const limit = 96 << 10
		calls := 0
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: limit},
			screenshot: func() (session.TurnScreenshot, bool) {
				calls++
				return session.TurnScreenshot{Monitor: 1, Label: "HDMI-1", Data: noisyPNG(t, 1280, 800, 2)}, true
			}})
		e.must(e.s.Attach(writeImage(t)))
		e.send("look at this")
		e.s.StartTurn("", clientTrigger())
		settle()
		tu := e.Turns()
		if len(tu) != 2 || calls != 2 {
			t.Fatalf("turns %d, screenshots %d", len(tu), calls)
		}
		for i, want := range []int{2, 1} {
			if !strings.Contains(tu[i].ClientContext, "\nscreenshot: monitor 1 (HDMI-1)\n") {
				t.Fatalf("turn %d block:\n%s", i, tu[i].ClientContext)
			}
			if len(tu[i].Images) != want || frameSize(t, tu[i]) > limit {
				t.Fatalf("turn %d: %d images, %d bytes", i, len(tu[i].Images), frameSize(t, tu[i]))
			}
			if img := jpegOf(t, tu[i].Images[0]); img.Bounds().Dx() > 1280 {
				t.Fatalf("turn %d screenshot %v", i, img.Bounds())
			}
		}
		if !strings.HasPrefix(tu[0].Images[1], "data:image/png;base64,") {
			t.Fatal("attachment not after the screenshot")
		}
		// The line sits between time/frontmost and body.
		block := tu[1].ClientContext
		if strings.Index(block, "screenshot:") > strings.Index(block, "body:") {
			t.Fatalf("line order:\n%s", block)
		}
	})
}

func TestScreenshotWithoutMaxTurnBytesKeepsLineOnly(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{screenshot: func() (session.TurnScreenshot, bool) {
			return session.TurnScreenshot{Monitor: 0, Label: "screen", Data: pngBytes()}, true
		}})
		e.send("hello")
		tu := e.Turns()
		if len(tu) != 1 || len(tu[0].Images) != 0 || !strings.Contains(tu[0].ClientContext, "screenshot: monitor 0 (screen)") {
			t.Fatalf("turns %+v events %+v", tu, e.ev.since(0))
		}
	})
}

func TestScreenshotThatCannotFitIsDropped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		// Room for the frame, not for the smallest JPEG.
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 1200},
			screenshot: func() (session.TurnScreenshot, bool) {
				return session.TurnScreenshot{Monitor: 0, Data: noisyPNG(t, 640, 480, 3)}, true
			}})
		e.send("hi")
		tu := e.Turns()
		if len(tu) != 1 || len(tu[0].Images) != 0 || strings.Contains(tu[0].ClientContext, "screenshot:") {
			t.Fatalf("turns %+v", tu)
		}
	})
}

func TestNoScreenshotWhenHookSaysNone(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 1 << 20},
			screenshot: func() (session.TurnScreenshot, bool) { return session.TurnScreenshot{}, false }})
		e.send("hi")
		tu := e.Turns()
		if len(tu) != 1 || len(tu[0].Images) != 0 || strings.Contains(tu[0].ClientContext, "screenshot:") {
			t.Fatalf("turns %+v", tu)
		}
	})
}

func TestAttachRejectsUnfittableFormats(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		bmp := append([]byte("BM"), make([]byte, 64)...)
		if err := e.s.AttachData(bmp); err == nil {
			t.Fatal("a BMP was attached")
		}
	})
}

func TestSendTypedImagesOnlySendsOneTurnWithThem(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 64 << 10}})
		id, err := e.s.SendTyped("  ", [][]byte{pngBytes()})
		e.must(err)
		synctest.Wait()
		tu := e.Turns()
		if id == "" || len(tu) != 1 || tu[0].TurnID != id || tu[0].Text != "" || len(tu[0].Images) != 1 {
			t.Fatalf("id %q, turns %+v", id, tu)
		}
		// Nothing is left over for the next typed turn.
		e.send("and now just words")
		if tu := e.Turns(); len(tu) != 2 || len(tu[1].Images) != 0 {
			t.Fatalf("second turn carried images: %+v", tu)
		}
	})
}

func TestSendTypedRefusedImageRefusesAllAndKeepsNothing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{server: pushserver.Config{MaxTurnBytes: 64 << 10}})
		bmp := append([]byte("BM"), make([]byte, 64)...)
		id, err := e.s.SendTyped("look", [][]byte{pngBytes(), bmp})
		if err == nil || id != "" || !strings.Contains(err.Error(), "image 2") {
			t.Fatalf("id %q err %v", id, err)
		}
		synctest.Wait()
		if tu := e.Turns(); len(tu) != 0 {
			t.Fatalf("a turn went out: %+v", tu)
		}
		e.send("plain text")
		if tu := e.Turns(); len(tu) != 1 || len(tu[0].Images) != 0 {
			t.Fatalf("the accepted first image was kept for later: %+v", tu)
		}
	})
}

func TestSendTypedNothingIsNoTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		if id, err := e.s.SendTyped(" \n ", nil); id != "" || err != nil {
			t.Fatalf("id %q err %v", id, err)
		}
		synctest.Wait()
		if len(e.Turns()) != 0 {
			t.Fatal("a blank message was sent")
		}
	})
}
