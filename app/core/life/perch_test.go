package life_test

import (
	"context"
	"image"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/app/core/life"
	"yui/app/look"
	"yui/app/perch"
	"yui/app/view"
)

func perched(f image.Rectangle) image.Point { return image.Pt(f.Min.X+f.Dx()/2-150, f.Min.Y-380) }

func TestSitsOnTheWindowAndMovesWithIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		f := image.Rect(300, 500, 900, 900)
		ans := e.goAct(context.Background(), sit("xterm")) // case-insensitive
		time.Sleep(walkTime(hypot(perched(f).Sub(start)), life.WalkSpeed) + life.StepEvery)
		synctest.Wait()
		if a := <-ans; a != bodyaction.OK {
			t.Fatal(a)
		}
		st := e.state()
		if st.Posture != body.Sitting || st.Perch == nil || st.Perch.App != "XTerm" || st.At != perched(f) {
			t.Fatalf("%+v", st)
		}
		if c := st.Context(); c.Posture != "sitting" || c.On != "XTerm" {
			t.Fatalf("body line %+v", c)
		}
		if got := e.pages.Sticky(view.RolePet, "p-1", view.TypeBody); got["posture"] != "sitting" || got["perched"] != true {
			t.Fatalf("page pose %v", got)
		}
		// Each move of the window moves her at once: no time passes.
		for _, to := range []image.Point{{400, 450}, {420, 460}, {1000, 300}} {
			e.desk.move(xterm, to)
			synctest.Wait()
			want := perched(image.Rectangle{Min: to, Max: to.Add(f.Size())})
			if at, typ := e.lastStep(t); at != want || typ != view.TypeWindowStep {
				t.Fatalf("after the window moved to %v: %s %v, want a step to %v", to, typ, at, want)
			}
			if st := e.state(); st.At != want || st.Posture != body.Sitting {
				t.Fatalf("%+v", st)
			}
		}
		// Still, she costs nothing: no step without a change.
		n := len(e.pages.Got(view.RoleShell, "p-1"))
		time.Sleep(time.Minute)
		synctest.Wait()
		if len(e.pages.Got(view.RoleShell, "p-1")) != n {
			t.Fatal("she moved while the window kept still")
		}
	})
}

// sitOnXterm perches her on the xterm and returns its frame.
func sitOnXterm(t *testing.T, e *env) image.Rectangle {
	t.Helper()
	f := image.Rect(300, 500, 900, 900)
	ans := e.goAct(context.Background(), sit("XTerm"))
	time.Sleep(3 * time.Second)
	synctest.Wait()
	if a := <-ans; a != bodyaction.OK {
		t.Fatal(a)
	}
	return f
}

func TestLandsWhenHerWindowGoes(t *testing.T) {
	for name, change := range map[string]func(w *look.Window) perch.Change{
		"minimised": func(w *look.Window) perch.Change { w.Hidden = true; return perch.Change{Frame: w.Frame, Hidden: true} },
		"closed":    func(w *look.Window) perch.Change { return perch.Change{Gone: true} },
		"fullscreen": func(w *look.Window) perch.Change {
			w.Fullscreen = true
			return perch.Change{Frame: image.Rect(0, 0, 1920, 1080), Fullscreen: true}
		},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := newEnv(t)
				f := sitOnXterm(t, e)
				e.desk.change(xterm, change)
				synctest.Wait()
				if st := e.state(); st.Perch != nil || !st.Moving {
					t.Fatalf("not falling: %+v", st)
				}
				time.Sleep(walkTime(float64(start.Y-perched(f).Y), life.FallSpeed) + life.StepEvery)
				synctest.Wait()
				st := e.state()
				if st.Posture != body.Standing || st.Moving || st.Perch != nil || st.At != image.Pt(perched(f).X, start.Y) {
					t.Fatalf("landed %+v", st)
				}
				if e.desk.live() != 0 {
					t.Fatal("the watch outlived her perch")
				}
			})
		})
	}
}

func TestLandsWhenAnotherWindowCoversHerSpot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		sitOnXterm(t, e)
		// The editor comes over the xterm's top edge under her, and the
		// stacking changes: she cannot sit in it.
		e.desk.mu.Lock()
		e.desk.wins[1].Frame = image.Rect(400, 450, 1000, 800)
		e.desk.mu.Unlock()
		e.desk.change(xterm, func(w *look.Window) perch.Change { return perch.Change{Frame: w.Frame, Restacked: true} })
		synctest.Wait()
		if st := e.state(); st.Perch != nil {
			t.Fatalf("still perched: %+v", st)
		}
		// Yui's own windows over her spot never count.
		e2 := newEnv(t)
		sitOnXterm(t, e2)
		e2.desk.mu.Lock()
		e2.desk.wins[2].Frame = image.Rect(300, 400, 900, 700)
		e2.desk.wins = append(e2.desk.wins[:1], e2.desk.wins[2], e2.desk.wins[1]) // own above xterm, editor on top elsewhere
		e2.desk.mu.Unlock()
		e2.desk.change(xterm, func(w *look.Window) perch.Change { return perch.Change{Frame: w.Frame, Restacked: true} })
		synctest.Wait()
		if st := e2.state(); st.Perch == nil {
			t.Fatal("her own window knocked her off")
		}
	})
}

func TestWindowVanishingMidWalk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		ans := e.goAct(context.Background(), sit("XTerm"))
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		mid := e.state().At
		e.desk.change(xterm, func(w *look.Window) perch.Change { return perch.Change{Gone: true} })
		time.Sleep(life.StepEvery)
		synctest.Wait()
		if a := <-ans; a != bodyaction.NotFound {
			t.Fatalf("%q", a)
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		st := e.state()
		if st.Posture != body.Standing || st.Perch != nil || st.Moving || st.At.Y != start.Y || st.At.X > mid.X || st.At.X < mid.X-10 {
			t.Fatalf("after the window went mid-walk: %+v (was at %v)", st, mid)
		}
	})
}

func TestWindowMovingMidWalkIsFollowed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		ans := e.goAct(context.Background(), sit("XTerm"))
		time.Sleep(500 * time.Millisecond)
		e.desk.move(xterm, image.Pt(500, 600))
		time.Sleep(3 * time.Second)
		synctest.Wait()
		if a := <-ans; a != bodyaction.OK {
			t.Fatal(a)
		}
		if st := e.state(); st.At != perched(image.Rect(500, 600, 1100, 1000)) {
			t.Fatalf("%+v", st)
		}
	})
}
