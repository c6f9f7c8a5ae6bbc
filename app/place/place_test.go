package place

import (
	"image"
	"testing"
)

var (
	pet     = image.Pt(300, 420)
	small   = image.Rect(0, 0, 1280, 800)
	big     = image.Rect(0, 0, 1920, 1080)
	twoMons = []image.Rectangle{image.Rect(0, 0, 1920, 1080), image.Rect(1920, 0, 3200, 800)}
)

func rect(p, size image.Point) image.Rectangle { return image.Rectangle{Min: p, Max: p.Add(size)} }

func TestBottomRightOfThePrimaryMonitor(t *testing.T) {
	if got, want := BottomRight(small, pet), image.Pt(1280-Margin-300, 800-Margin-420); got != want {
		t.Fatalf("BottomRight = %v, want %v", got, want)
	}
	// A monitor with an offset (the second of two).
	if got, want := BottomRight(twoMons[1], pet), image.Pt(3200-Margin-300, 800-Margin-420); got != want {
		t.Fatalf("BottomRight on the second monitor = %v, want %v", got, want)
	}
	// A monitor smaller than the window: its top-left.
	if got := BottomRight(image.Rect(10, 20, 200, 300), pet); got != image.Pt(10, 20) {
		t.Fatalf("BottomRight on a tiny monitor = %v", got)
	}
}

func TestRestoreClampsToTheMonitorsPresentNow(t *testing.T) {
	mons := []image.Rectangle{small}
	for _, c := range []struct {
		name      string
		saved     image.Point
		want      image.Point
		wantWhole bool
	}{
		// The case: saved on a 1920×1080 screen, relaunched on 1280×800.
		{"saved beyond a smaller screen", image.Pt(1769, 809), image.Pt(1280-300, 800-420), true},
		{"already on screen stays", image.Pt(200, 150), image.Pt(200, 150), true},
		{"half off the left", image.Pt(-150, 100), image.Pt(0, 100), true},
		{"above the top", image.Pt(500, -300), image.Pt(500, 0), true},
		{"far away", image.Pt(-5000, 9000), image.Pt(0, 800-420), true},
	} {
		got := Restore(c.saved, pet, mons)
		if got != c.want {
			t.Errorf("%s: Restore(%v) = %v, want %v", c.name, c.saved, got, c.want)
		}
		if r := rect(got, pet); !r.In(small) {
			t.Errorf("%s: %v is not wholly on the screen", c.name, r)
		}
	}
	// Two monitors: a window on the second stays there; one that was on a
	// third (now unplugged) monitor comes to the nearest.
	if got := Restore(image.Pt(2500, 100), pet, twoMons); got != image.Pt(2500, 100) {
		t.Errorf("on the second monitor: %v", got)
	}
	if got := Restore(image.Pt(3400, 300), pet, twoMons); !rect(got, pet).In(twoMons[1]) {
		t.Errorf("beyond the second monitor: %v is not on it", got)
	}
	// Mostly on the first, a little on the second: wholly on the first.
	if got := Restore(image.Pt(1700, 100), pet, twoMons); !rect(got, pet).In(twoMons[0]) {
		t.Errorf("straddling: %v is not on the first monitor", got)
	}
	// No monitor known: unchanged.
	if got := Restore(image.Pt(1769, 809), pet, nil); got != image.Pt(1769, 809) {
		t.Errorf("without monitors: %v", got)
	}
}

func TestKeepThirdLetsHerHangOffButNotBeLost(t *testing.T) {
	mons := []image.Rectangle{small}
	// The whole window as her box.
	whole := image.Rectangle{Max: pet}
	area := pet.X * pet.Y
	// Within limits: unchanged.
	for _, p := range []image.Point{{100, 100}, {-190, 100}, {1280 - 110, 300}, {400, 800 - 150}} {
		if got := KeepThird(p, whole, mons); got != p {
			t.Errorf("KeepThird(%v) = %v; a third or more was on screen", p, got)
		}
	}
	// Beyond: moved back, and the result shows at least a third.
	for _, p := range []image.Point{{-250, 100}, {1280 - 20, 300}, {400, 790}, {-280, 780}, {5000, 5000}, {400, -100}, {-100, -300}} {
		got := KeepThird(p, whole, mons)
		if got == p {
			t.Errorf("KeepThird(%v) left her there", p)
		}
		if v := Visible(rect(got, pet), mons); v*3 < area {
			t.Errorf("KeepThird(%v) = %v shows %d of %d px (under a third)", p, got, v, area)
		}
		if got.Y < 0 {
			t.Errorf("KeepThird(%v) = %v: above the top", p, got)
		}
	}
	// The nearest spot: dragged too far left, only x changes.
	if got := KeepThird(image.Pt(-250, 100), whole, mons); got != image.Pt(-200, 100) {
		t.Errorf("too far left: %v, want (-200,100)", got)
	}
	// Across two monitors, a window on the seam is on screen.
	if p := image.Pt(1800, 100); KeepThird(p, whole, twoMons) != p {
		t.Errorf("on the seam of two monitors she was moved")
	}
	// Off the second monitor's bottom (the first is taller): back on the second.
	got := KeepThird(image.Pt(2500, 900), whole, twoMons)
	if v := Visible(rect(got, pet), twoMons[1:]); v*3 < area {
		t.Errorf("off the second monitor's bottom: %v shows %d px of it", got, v)
	}
	// Her box inside a larger window: the third is of her, not of the
	// window's transparent margins. At x = -200 a third of the window
	// shows, but none of a figure in its middle.
	body := image.Rect(60, 164, 240, 380)
	got = KeepThird(image.Pt(-200, 100), body, mons)
	her := body.Add(got)
	if v := Visible(her, mons); v*3 < body.Dx()*body.Dy() {
		t.Errorf("with her box: %v shows %d px of her %v", got, v, body.Size())
	}
	if want := image.Pt(-(body.Min.X + body.Dx() - (body.Dx()+2)/3), 100); got != want {
		t.Errorf("with her box: %v, want %v (the nearest place showing a third)", got, want)
	}
	// Her head above the top of the screen: down to the top.
	if got := KeepThird(image.Pt(100, -200), body, mons); got.Y+body.Min.Y != 0 {
		t.Errorf("head above the top: %v", got)
	}
}

func TestBesideStandsNewCharactersApart(t *testing.T) {
	mons := []image.Rectangle{small}
	first := Beside(pet, mons, nil)
	if first != BottomRight(small, pet) {
		t.Fatalf("the first character: %v, want the bottom-right %v", first, BottomRight(small, pet))
	}
	taken := []image.Rectangle{rect(first, pet)}
	second := Beside(pet, mons, taken)
	if rect(second, pet).Overlaps(taken[0]) {
		t.Fatalf("the second character %v overlaps the first %v", second, first)
	}
	if second.Y != first.Y || second.X >= first.X {
		t.Fatalf("the second character %v is not to the left of the first %v", second, first)
	}
	// Fill the screen: every new one is free of the others while there is room.
	for i := 0; i < 2; i++ { // four fit in a row of 1280 px
		p := Beside(pet, mons, taken)
		r := rect(p, pet)
		if !r.In(small) {
			t.Fatalf("character %d at %v is off screen", i+3, r)
		}
		for _, o := range taken {
			if r.Overlaps(o) {
				t.Fatalf("character %d at %v overlaps %v", i+3, r, o)
			}
		}
		taken = append(taken, r)
	}
	// Full: still on screen.
	if p := Beside(pet, mons, []image.Rectangle{small}); !rect(p, pet).In(small) {
		t.Fatalf("a full screen put her at %v", p)
	}
	// A character the user moved elsewhere leaves the corner free.
	if p := Beside(pet, mons, []image.Rectangle{rect(image.Pt(10, 10), pet)}); p != first {
		t.Fatalf("with the corner free: %v, want %v", p, first)
	}
	// No monitor known.
	if p := Beside(pet, nil, nil); p != (image.Point{}) {
		t.Fatalf("without monitors: %v", p)
	}
}

func TestAwayOpensWhereNoPetCoversIt(t *testing.T) {
	size := image.Pt(860, 620)
	mons := []image.Rectangle{small}
	centre := image.Pt((1280-860)/2, (800-620)/2)
	if got := Away(size, mons, nil); got != centre {
		t.Fatalf("no pets: %v, want the centre %v", got, centre)
	}
	// A pet at the bottom-right: the centred window overlaps her, so it
	// moves to a free spot.
	pets := []image.Rectangle{rect(BottomRight(small, pet), pet)}
	got := Away(size, mons, pets)
	if r := rect(got, size); r.Overlaps(pets[0]) || !r.In(small) {
		t.Fatalf("with a pet at the bottom-right: %v overlaps her or is off screen", r)
	}
	// Pets everywhere: the spot covered least, on screen.
	pets = []image.Rectangle{rect(image.Pt(0, 0), pet), rect(image.Pt(490, 0), pet), rect(image.Pt(980, 380), pet)}
	got = Away(size, mons, pets)
	if r := rect(got, size); !r.In(small) {
		t.Fatalf("crowded: %v off screen", r)
	}
	// Two monitors, the first crowded: the second.
	crowd := []image.Rectangle{twoMons[0]}
	if r := rect(Away(size, twoMons, crowd), size); !r.In(twoMons[1]) {
		t.Fatalf("first monitor covered: %v is not on the second", r)
	}
}

// Issue 21: a character saved from the settings window landed over its
// Save and Revert corner. On a 1280×800 screen with the settings window
// where Away opens it and the first character at the bottom-right, no
// spot is clear of both: she keeps clear of the settings window and
// overlaps the other character's window least (its top, where a bubble
// shows only while she speaks — not her figure).
func TestBesideClearOfKeepsOffTheSettingsWindow(t *testing.T) {
	mons := []image.Rectangle{small}
	yui := rect(BottomRight(small, pet), pet)
	settings := rect(Away(image.Pt(760, 560), mons, []image.Rectangle{yui}), image.Pt(760, 560))
	got := BesideClearOf(pet, mons, []image.Rectangle{yui}, []image.Rectangle{settings})
	r := rect(got, pet)
	if in := r.Intersect(settings); !in.Empty() {
		t.Fatalf("placed at %v: covers %v of the settings window %v", r, in, settings)
	}
	if !r.In(small.Inset(Margin)) {
		t.Fatalf("placed at %v: not inside the screen's margin", r)
	}
	// Her figure (the body box of a pet window) is clear of Yui's figure.
	body := image.Rect(60, 164, 240, 380)
	if in := body.Add(r.Min).Intersect(body.Add(yui.Min)); !in.Empty() {
		t.Fatalf("placed at %v: her figure covers Yui's by %v", r, in)
	}
	if want := image.Pt(settings.Max.X+Gap, Margin); got != want {
		t.Fatalf("placed at %v, want %v (just right of the settings window %v, above Yui)", got, want, settings)
	}

	// Where Beside's spot is clear of it, that spot: nothing changes.
	far := image.Rect(0, 0, 400, 300)
	if got, want := BesideClearOf(pet, mons, []image.Rectangle{yui}, []image.Rectangle{far}), Beside(pet, mons, []image.Rectangle{yui}); got != want {
		t.Fatalf("with the settings window out of the way: %v, want Beside's %v", got, want)
	}
	if got, want := BesideClearOf(pet, mons, nil, nil), BottomRight(small, pet); got != want {
		t.Fatalf("nothing to avoid: %v, want %v", got, want)
	}

	// On a larger screen she stands beside the settings window, on the
	// bottom row next to Yui.
	bigMons := []image.Rectangle{big}
	yui = rect(BottomRight(big, pet), pet)
	settings = image.Rect(1000, 500, 1600, 1000) // moved by the user, over Beside's next spot
	got = BesideClearOf(pet, bigMons, []image.Rectangle{yui}, []image.Rectangle{settings})
	r = rect(got, pet)
	if !r.Intersect(settings).Empty() || !r.Intersect(yui).Empty() {
		t.Fatalf("on 1920×1080: %v covers the settings window %v or Yui %v", r, settings, yui)
	}
	if want := image.Pt(1000-Gap-300, 1080-Margin-420); got != want {
		t.Fatalf("on 1920×1080: %v, want %v (left of the settings window, on the bottom row)", got, want)
	}
	// Two monitors: the second is used when the first has no clear spot.
	full := image.Rect(0, 0, 1920, 1080)
	got = BesideClearOf(pet, twoMons, nil, []image.Rectangle{full})
	if !rect(got, pet).In(twoMons[1]) {
		t.Fatalf("with the first monitor covered: %v, not on the second", got)
	}
}
