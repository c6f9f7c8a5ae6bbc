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
	"yui/app/view"
)

func sit(app string) bodyaction.Action {
	return bodyaction.Action{Kind: bodyaction.SitOnWindow, App: app}
}

func moveTo(spot string, monitor ...int) bodyaction.Action {
	a := bodyaction.Action{Kind: bodyaction.MoveTo, Spot: spot}
	if len(monitor) > 0 {
		a.Monitor = &monitor[0]
	}
	return a
}

// walkTime is how long a walk of d pixels takes at pace, to the step.
func walkTime(d, pace float64) time.Duration { return time.Duration(d / pace * float64(time.Second)) }

func TestWalkGoesAtHerPaceStepByStep(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		// To DP-1's bottom-left: 800 px left along the floor.
		want := walkTime(800, life.WalkSpeed)
		ans := e.goAct(context.Background(), moveTo("bottom-left"))
		time.Sleep(want - 2*life.StepEvery)
		synctest.Wait()
		select {
		case a := <-ans:
			t.Fatalf("answered %q before she got there", a)
		default:
		}
		st := e.state()
		if st.Posture != body.Walking || !st.Moving || st.Facing != "left" || st.At.X <= 0 || st.At.X >= 800 || st.At.Y != start.Y {
			t.Fatalf("mid-walk %+v", st)
		}
		if got := e.pages.Sticky(view.RolePet, "p-1", view.TypeBody); got["posture"] != "walking" || got["facing"] != "left" {
			t.Fatalf("page pose %v", got)
		}
		time.Sleep(3 * life.StepEvery)
		synctest.Wait()
		if a := <-ans; a != bodyaction.OK {
			t.Fatal(a)
		}
		st = e.state()
		if st.Posture != body.Standing || st.Moving || st.At != image.Pt(0, start.Y) {
			t.Fatalf("arrived %+v", st)
		}
		at, typ := e.lastStep(t)
		if at != st.At || typ != view.TypeWindowMove {
			t.Fatalf("last shell message %s %v: the place is settled with a window_move", typ, at)
		}
		steps := e.pages.Of(view.RoleShell, "p-1", view.TypeWindowStep)
		if n := len(steps); n < int(want/life.StepEvery)-1 || n > int(want/life.StepEvery)+2 {
			t.Fatalf("%d steps for a %v walk: not a step per %v", n, want, life.StepEvery)
		}
		if got := e.pages.Sticky(view.RolePet, "p-1", view.TypeBody); got["posture"] != "standing" || got["facing"] != "" {
			t.Fatalf("page pose %v", got)
		}
	})
}

func TestFarWaysAreHopped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		// To HDMI-1's top-right: her body 16 px in from its corner.
		to := image.Pt(1920+1280-16-240, 16-164)
		d := image.Pt(to.X-start.X, to.Y-start.Y)
		dist := hypot(d)
		if dist <= life.HopDistance {
			t.Fatal("not a far way")
		}
		ans := e.goAct(context.Background(), moveTo("top-right", 1))
		time.Sleep(walkTime(dist, life.HopSpeed) + life.StepEvery)
		synctest.Wait()
		if a := <-ans; a != bodyaction.OK {
			t.Fatal(a)
		}
		if st := e.state(); st.At != to || st.Monitor != 1 {
			t.Fatalf("%+v, want at %v on monitor 1", st, to)
		}
	})
}

func hypot(p image.Point) float64 {
	x, y := float64(p.X), float64(p.Y)
	return sqrt(x*x + y*y)
}

func sqrt(v float64) float64 {
	r := v
	for range 60 {
		if r == 0 {
			return 0
		}
		r = (r + v/r) / 2
	}
	return r
}

// perched is where she sits on the xterm at frame f: centred, her feet on
// its top edge.
