package jpegfit

import (
	"context"
	"encoding/base64"
	"image/jpeg"
	"strings"
	"testing"
	"time"

	"yui/app/jpegfit/jpegfittest"
)

// stepClock is a clock that moves on by step every time it is read, so a
// search that reads it between encodes sees time pass at a fixed rate
// whatever the machine's speed.
type stepClock struct {
	now   time.Time
	step  time.Duration
	reads int
}

func (c *stepClock) Now() time.Time {
	c.reads++
	c.now = c.now.Add(c.step)
	return c.now
}

// checkJPEGURL decodes a data URL and returns its size in pixels.
func checkJPEGURL(t *testing.T, u string, urlBytes int) (int, int) {
	t.Helper()
	if len(u) > urlBytes {
		t.Fatalf("data URL %d bytes, room %d", len(u), urlBytes)
	}
	payload, ok := strings.CutPrefix(u, "data:image/jpeg;base64,")
	if !ok {
		t.Fatalf("not a JPEG data URL: %.40q", u)
	}
	img, err := jpeg.Decode(base64.NewDecoder(base64.StdEncoding, strings.NewReader(payload)))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return img.Bounds().Dx(), img.Bounds().Dy()
}

// TestFitRGBAWithoutDeadlineSearchesFully: with no bound the search uses
// the room well, as Fit does.
func TestFitRGBAWithoutDeadlineSearchesFully(t *testing.T) {
	img := jpegfittest.Screenshot(1280, 800, 11)
	const room = 96 << 10
	u, o, err := FitRGBA(context.Background(), img, room, Deadline{})
	if err != nil {
		t.Fatal(err)
	}
	w, h := checkJPEGURL(t, u, room)
	if w != o.Width || h != o.Height || !o.Reencoded {
		t.Fatalf("outcome %+v for a %dx%d image", o, w, h)
	}
	if float64(len(u)) < 0.5*room {
		t.Fatalf("unbounded search filled %d of %d bytes", len(u), room)
	}
}

// TestFitRGBADeadlineBoundsTheSearch: with a clock that passes the deadline
// after the first encode, the search stops at once and still returns a
// JPEG within the room; the clock is read a bounded number of times (once
// per encode at most), whatever the machine's speed.
func TestFitRGBADeadlineBoundsTheSearch(t *testing.T) {
	img := jpegfittest.Screenshot(1280, 800, 11)
	for _, room := range []int{96 << 10, 8 << 10} {
		clock := &stepClock{now: time.Unix(1e9, 0), step: time.Second}
		d := Deadline{At: clock.now.Add(time.Second / 2), Now: clock.Now}
		u, o, err := FitRGBA(context.Background(), img, room, d)
		if err != nil {
			t.Fatalf("room %d: %v", room, err)
		}
		checkJPEGURL(t, u, room)
		if o.Width < 1 || o.Height < 1 {
			t.Fatalf("room %d: outcome %+v", room, o)
		}
		// The deadline passed at the first check, right after the first
		// encode: the answer is that encode (the start quality at the
		// estimated scale) or, when it did not fit, the last resort's tiny
		// image — never the outcome of a longer search.
		if o.Quality != startQuality && max(o.Width, o.Height) > minLongSide {
			t.Fatalf("room %d: %dx%d q%d: the search went on past its deadline", room, o.Width, o.Height, o.Quality)
		}
		unbounded, uo, err := FitRGBA(context.Background(), img, room, Deadline{})
		if err != nil {
			t.Fatal(err)
		}
		checkJPEGURL(t, unbounded, room)
		t.Logf("room %d: bounded %dx%d q%d, unbounded %dx%d q%d", room, o.Width, o.Height, o.Quality, uo.Width, uo.Height, uo.Quality)
		if uo.Width*uo.Height < o.Width*o.Height {
			t.Fatalf("room %d: the full search gave a smaller image than the bounded one", room)
		}
	}
}

// TestFitRGBADeadlineAlreadyPassed: a deadline that passed before the call
// still gets an answer within the room.
func TestFitRGBADeadlineAlreadyPassed(t *testing.T) {
	img := jpegfittest.Screenshot(640, 400, 12)
	clock := &stepClock{now: time.Unix(1e9, 0)}
	d := Deadline{At: clock.now.Add(-time.Second), Now: clock.Now}
	const room = 4 << 10
	u, _, err := FitRGBA(context.Background(), img, room, d)
	if err != nil {
		t.Fatal(err)
	}
	checkJPEGURL(t, u, room)
}

func TestFitRGBAErrors(t *testing.T) {
	if _, _, err := FitRGBA(context.Background(), nil, 1<<20, Deadline{}); err == nil {
		t.Fatal("nil image: no error")
	}
	img := jpegfittest.Screenshot(64, 64, 1)
	if _, _, err := FitRGBA(context.Background(), img, 100, Deadline{}); err == nil {
		t.Fatal("100 bytes of room: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := FitRGBA(ctx, img, 1<<20, Deadline{}); err == nil {
		t.Fatal("cancelled context: no error")
	}
}
