package desktop

import (
	"context"
	"errors"
	"sync"

	"yui/app/hotkey"
	"yui/app/view"
)

// shortcut is the global shortcut in force: what it is, the grab's
// cancel, and why it is not working ("" when it is).
type shortcut struct {
	mu     sync.Mutex
	combo  string // what is grabbed ("" none)
	cancel context.CancelFunc
	note   string
}

// ApplyShortcut grabs the saved shortcut (again, when it changed) or lets
// it go (switched off, quitting: on false). A combination another app
// holds, or a system without global shortcuts, is logged and told in the
// settings window (ShortcutNote); the rest of Yui goes on.
func (r *Room) ApplyShortcut(on bool) {
	kb := r.cfg.Store.Get().Keyboard
	want := kb.ShortcutOrDefault()
	if kb.ShortcutOff || !on {
		want = ""
	}
	s := &r.short
	s.mu.Lock()
	defer s.mu.Unlock()
	if want == s.combo && (want == "" || s.cancel != nil) {
		return
	}
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.combo, s.note = want, ""
	g := r.cfg.Hotkeys
	if want == "" || g == nil {
		return
	}
	combo, err := hotkey.Parse(want)
	if err == nil {
		ctx, cancel := context.WithCancel(context.Background())
		if err = g.Listen(ctx, combo, r.OpenComposer); err != nil {
			cancel()
		} else {
			s.cancel = cancel
			r.log.Info("shortcut_grabbed", "shortcut", combo.String())
			return
		}
	}
	r.log.Warn("shortcut_unavailable", "shortcut", want, "err", err.Error())
	if errors.Is(err, hotkey.ErrTaken) {
		s.note = want + " is already used by another app; choose another shortcut."
	} else {
		s.note = "The shortcut does not work here: " + err.Error()
	}
}

// ShortcutNote says why the global shortcut does not work ("" when it
// does or is off).
func (r *Room) ShortcutNote() string {
	r.short.mu.Lock()
	defer r.short.mu.Unlock()
	return r.short.note
}

// OpenComposer shows the main character (started again if hidden) and
// opens her composer, focused: what the global shortcut does. Safe from
// any goroutine.
func (r *Room) OpenComposer() {
	id := r.cfg.Store.Get().ActivePreset
	r.log.Info("shortcut_pressed", "preset", id)
	if err := r.ShowPet(id); err != nil {
		r.log.Warn("window_show_failed", "preset", id, "err", err.Error())
		return
	}
	r.cfg.Pages.Send(view.RolePet, id, view.MustEncode(view.TypeOpenComposer, struct{}{}))
}
