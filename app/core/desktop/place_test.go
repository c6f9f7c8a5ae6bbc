package desktop

import (
	"image"
	"testing"
	"testing/synctest"

	"yui/app/core/windows"
	"yui/app/place"
	"yui/app/settings"
	"yui/app/view"
)

func TestADragKeepsAThirdOnScreenAndResetPositionBringsHerBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t, opts{screen: screen1280()})
		e.store.Update(func(x *settings.Settings) { x.Presets[0].Window = &settings.Position{X: 100, Y: 100} })
		p := e.store.Get().Presets[0]
		saved := func() *settings.Position { return e.store.Get().Presets[0].Window }
		moves := func() []image.Point {
			var out []image.Point
			for _, m := range e.pages.Of(view.RoleShell, p.ID, view.TypeWindowMove) {
				out = append(out, image.Pt(int(m["x"].(float64)), int(m["y"].(float64))))
			}
			return out
		}
		// Within bounds (half of her off the left edge): saved as is, no move.
		e.send(view.RoleShell, p.ID, map[string]any{"type": "window_position", "x": -150, "y": 200})
		if w := saved(); w == nil || w.X != -150 || w.Y != 200 || len(moves()) != 0 {
			t.Fatalf("saved %+v, moves %v", w, moves())
		}
		// Dragged almost off the left edge: moved back to show a third of her.
		e.send(view.RoleShell, p.ID, map[string]any{"type": "window_position", "x": -220, "y": 200})
		wantX := -(PetBody.Max.X - (PetBody.Dx()+2)/3)
		if got := moves(); len(got) != 1 || got[0] != image.Pt(wantX, 200) {
			t.Fatalf("moved back to %v, want (%d,200)", got, wantX)
		}
		if w := saved(); w == nil || w.X != wantX {
			t.Fatalf("the corrected position is not saved: %+v", w)
		}
		// Reset position from the pet menu.
		e.send(view.RolePet, p.ID, map[string]any{"type": "desktop_action", "action": "reset_position"})
		want := place.BottomRight(image.Rect(0, 0, 1280, 800), image.Pt(windows.PetWidth, windows.PetHeight))
		if got := moves(); len(got) != 2 || got[1] != want {
			t.Fatalf("reset to %v, want %v", got, want)
		}
		if w := saved(); w == nil || w.X != want.X || w.Y != want.Y {
			t.Fatalf("the reset position is not saved: %+v", w)
		}
		// The tray's Reset positions.
		e.send(view.RoleShell, p.ID, map[string]any{"type": "window_position", "x": 10, "y": 10})
		if saved().X != 10 {
			t.Fatal("not moved")
		}
		e.room.ResetPositions()
		if got := moves(); len(got) != 3 || got[2] != want {
			t.Fatalf("tray reset to %v, want %v", got, want)
		}
		// Only a pet window's shell reports its position.
		e.send(view.RolePet, p.ID, map[string]any{"type": "window_position", "x": 500, "y": 10})
		if saved().X != want.X {
			t.Fatal("a page moved her")
		}
	})
}
