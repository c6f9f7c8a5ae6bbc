package life_test

import (
	"context"
	"encoding/json"
	"image"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/app/capture"
	"yui/app/core/life"
	"yui/app/look"
	"yui/app/session"
	"yui/app/view"
	"yui/transport"
)

func TestADragInterruptsAndADropPerches(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		ans := e.goAct(context.Background(), moveTo("center"))
		time.Sleep(300 * time.Millisecond)
		synctest.Wait()
		e.page(view.TypeBodyDrag, view.BodyDrag{Phase: view.DragStart})
		synctest.Wait()
		if a := <-ans; a != bodyaction.Interrupted {
			t.Fatalf("%q", a)
		}
		if st := e.state(); st.Posture != body.Dragging || !st.Moving {
			t.Fatalf("%+v", st)
		}
		if got := e.pages.Sticky(view.RolePet, "p-1", view.TypeBody); got["posture"] != "dragging" {
			t.Fatalf("page pose %v", got)
		}
		// While she is held, an action is busy.
		if a := e.act(moveTo("center")); a != bodyaction.Busy {
			t.Fatalf("%q", a)
		}
		// Dropped with her feet 5 px below the editor's top edge: she
		// snaps onto it and stays on it.
		drop := image.Pt(1100, 600-380+5)
		e.page(view.TypeBodyDrag, view.BodyDrag{Phase: view.DragEnd, X: drop.X, Y: drop.Y})
		synctest.Wait()
		st := e.state()
		if st.Posture != body.Sitting || st.Perch == nil || st.Perch.App != "Editor" || st.At != image.Pt(1100, 220) {
			t.Fatalf("%+v", st)
		}
		if at, typ := e.lastStep(t); at != st.At || typ != view.TypeWindowMove {
			t.Fatalf("%s %v: the snap moves her window", typ, at)
		}
		e.desk.move(editor, image.Pt(1000, 650))
		synctest.Wait()
		if st := e.state(); st.At != image.Pt(1100, 270) {
			t.Fatalf("not following after the drop: %+v", st)
		}
		// A window of Yui's own (a popup of her window process: class yui)
		// is never a perch, even right under her feet.
		e.desk.mu.Lock()
		e.desk.wins = append(e.desk.wins, look.Window{ID: 0x600001, App: "yui", Rect: image.Rect(0, 480, 400, 600), Frame: image.Rect(0, 480, 400, 600)})
		e.desk.mu.Unlock()
		e.page(view.TypeBodyDrag, view.BodyDrag{Phase: view.DragStart})
		e.page(view.TypeBodyDrag, view.BodyDrag{Phase: view.DragEnd, X: 50, Y: 100})
		synctest.Wait()
		if st := e.state(); st.Perch != nil || st.At != image.Pt(50, 100) {
			t.Fatalf("perched on her own popup: %+v", st)
		}
		// Dragged off: she stands where she is dropped, and the window no
		// longer moves her.
		e.page(view.TypeBodyDrag, view.BodyDrag{Phase: view.DragStart})
		e.page(view.TypeBodyDrag, view.BodyDrag{Phase: view.DragEnd, X: 100, Y: 100})
		synctest.Wait()
		if st := e.state(); st.Posture != body.Standing || st.Perch != nil || st.At != image.Pt(100, 100) {
			t.Fatalf("%+v", st)
		}
		e.desk.move(editor, image.Pt(1000, 700))
		synctest.Wait()
		if st := e.state(); st.At != image.Pt(100, 100) || e.desk.live() != 0 {
			t.Fatalf("moved by a window she left: %+v", st)
		}
	})
}

func TestANewerActionReplacesTheRunningOne(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		first := e.goAct(context.Background(), moveTo("bottom-left"))
		time.Sleep(500 * time.Millisecond)
		synctest.Wait()
		second := e.goAct(context.Background(), bodyaction.Action{Kind: bodyaction.Peek, Side: "right"})
		synctest.Wait()
		if a := <-first; a != bodyaction.Interrupted {
			t.Fatalf("first %q", a)
		}
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if a := <-second; a != bodyaction.OK {
			t.Fatalf("second %q", a)
		}
		st := e.state()
		// Peeking in from DP-1's right edge: 72 px of her body shows.
		if st.Posture != body.Peeking || st.Side != "right" || st.At.X+240 != 1920+180-72 {
			t.Fatalf("%+v", st)
		}
		if got := e.pages.Sticky(view.RolePet, "p-1", view.TypeBody); got["posture"] != "peeking" || got["side"] != "right" {
			t.Fatalf("page pose %v", got)
		}
		// Her menu's Go to bed replaces an action too.
		walking := e.goAct(context.Background(), moveTo("center"))
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		e.page(view.TypeBodyMenu, view.BodyMenu{Action: view.BodyMenuSleep})
		synctest.Wait()
		if a := <-walking; a != bodyaction.Interrupted {
			t.Fatalf("%q", a)
		}
		if st := e.state(); st.Posture != body.Sleeping {
			t.Fatalf("%+v", st)
		}
	})
}

func TestBedAndWakingUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		asleep := func(want bool) {
			t.Helper()
			if got := e.state().Posture == body.Sleeping; got != want {
				t.Fatalf("asleep %v, want %v", got, want)
			}
		}
		if a := e.act(bodyaction.Action{Kind: bodyaction.GoToBed}); a != bodyaction.OK {
			t.Fatal(a)
		}
		asleep(true)
		if got := e.pages.Sticky(view.RolePet, "p-1", view.TypeBody); got["posture"] != "sleeping" {
			t.Fatalf("page pose %v", got)
		}
		if c := e.room.Context("p-1"); c.Posture != "sleeping" {
			t.Fatalf("%+v", c)
		}
		e.room.OnEvent("p-1", session.TurnSent{TurnID: "1"}) // a trigger turn: not the user
		asleep(true)
		e.room.OnEvent("p-1", session.TurnSent{TurnID: "2", Text: "hi"})
		asleep(false)
		e.act(bodyaction.Action{Kind: bodyaction.GoToBed})
		e.room.OnEvent("p-1", session.SpeechStart{Text: "Hello."})
		asleep(false)
		e.page(view.TypeBodyMenu, view.BodyMenu{Action: view.BodyMenuSleep})
		asleep(true)
		e.page(view.TypeBodyMenu, view.BodyMenu{Action: view.BodyMenuWake}) // Wake up, or a click on her
		asleep(false)
		// Asleep on a window, she wakes sitting on it.
		sitOnXterm(t, e)
		e.act(bodyaction.Action{Kind: bodyaction.GoToBed})
		if st := e.state(); st.Posture != body.Sleeping || st.Perch == nil {
			t.Fatalf("%+v", st)
		}
		e.room.OnEvent("p-1", session.SpeechStart{Text: "Hello."})
		if st := e.state(); st.Posture != body.Sitting || st.Perch == nil {
			t.Fatalf("%+v", st)
		}
		// stand: up on her feet, still on the window.
		if a := e.act(bodyaction.Action{Kind: bodyaction.Stand}); a != bodyaction.OK {
			t.Fatal(a)
		}
		if c := e.room.Context("p-1"); c.Posture != "standing" || c.On != "XTerm" {
			t.Fatalf("%+v", c)
		}
	})
}

func TestStandStepsOutOfAPeek(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		ans := e.goAct(context.Background(), bodyaction.Action{Kind: bodyaction.Peek, Side: "left"})
		time.Sleep(5 * time.Second)
		synctest.Wait()
		if a := <-ans; a != bodyaction.OK {
			t.Fatal(a)
		}
		if st := e.state(); st.At.X+60+180 != 72 {
			t.Fatalf("peeking %+v", st)
		}
		ans = e.goAct(context.Background(), bodyaction.Action{Kind: bodyaction.Stand})
		time.Sleep(2 * time.Second)
		synctest.Wait()
		if a := <-ans; a != bodyaction.OK {
			t.Fatal(a)
		}
		if st := e.state(); st.Posture != body.Standing || st.At.X != -60 {
			t.Fatalf("%+v: her whole body back on the monitor", st)
		}
	})
}

func TestErrorAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		e.desk.mu.Lock()
		e.desk.wins = append(e.desk.wins,
			win(0x500001, "Far", image.Rect(5000, 5000, 5600, 5400)), // off every monitor
			win(0x500002, "High", image.Rect(300, 100, 900, 600)),    // no room above for her
			win(0x500003, "Gimp", image.Rect(300, 500, 900, 900)),    // minimised
			look.Window{ID: 0x500004, App: "Video", Rect: image.Rect(0, 0, 1920, 1080), Frame: image.Rect(0, 0, 1920, 1080), Fullscreen: true},
		)
		e.desk.wins[len(e.desk.wins)-2].Hidden = true
		e.desk.mu.Unlock()
		for _, c := range []struct {
			a    bodyaction.Action
			want string
		}{
			{sit("Nothing"), bodyaction.NotFound},
			{sit("yui"), bodyaction.NotFound}, // her own settings window
			{sit("Gimp"), bodyaction.NotFound},
			{sit("Far"), bodyaction.Blocked},
			{sit("High"), bodyaction.Blocked},
			{sit("Video"), bodyaction.Blocked},
			{moveTo("center", 2), "error: invalid field monitor"},
		} {
			if got := e.act(c.a); got != c.want {
				t.Errorf("%+v: %q, want %q", c.a, got, c.want)
			}
		}
		if st := e.state(); st.At != start || st.Posture != body.Standing {
			t.Fatalf("a refused action moved her: %+v", st)
		}
		if e.desk.watches != 0 {
			t.Fatal("a refused sit watched a window")
		}
		// No desktop: unsupported.
		bare := life.New(life.Config{Pages: e.pages, Host: host{}, Screen: &capture.Fixed{Screens: monitors}})
		tool := bodyaction.New(bare.Actor("p-1"))
		if s, _, err := tool.Run(context.Background(), transport.ToolCall{Name: bodyaction.Name, Arguments: json.RawMessage(`{"action":"stand"}`)}); s != bodyaction.Unsupported || err != nil {
			t.Fatal(s, err)
		}
	})
}

// TestLookReadsTheSameBody: look at body and perch_targets read the room.
func TestLookReadsTheSameBody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		sitOnXterm(t, e)
		tool := look.New(look.Config{Body: look.BodyFunc(func() look.BodyState { return e.room.Look("p-1") }),
			Windows: e.room.Windows(), Screen: &capture.Fixed{Screens: monitors}, OwnPIDs: []int{77}})
		s, _, err := tool.Run(context.Background(), transport.ToolCall{Name: "look", Arguments: json.RawMessage(`{"at":"body"}`)})
		want := `{"position":{"x":450,"y":120},"monitor":0,"posture":"sitting","perched_on":{"app":"XTerm","title":"XTerm window"},"moving":false}`
		if err != nil || s != want {
			t.Fatalf("%s\nwant %s", s, want)
		}
		s, _, _ = tool.Run(context.Background(), transport.ToolCall{Name: "look", Arguments: json.RawMessage(`{"at":"perch_targets"}`)})
		var pt struct{ Windows []struct{ App string } }
		json.Unmarshal([]byte(s), &pt)
		if len(pt.Windows) != 2 || pt.Windows[0].App != "XTerm" || pt.Windows[1].App != "Editor" {
			t.Fatalf("%s", s)
		}
	})
}
