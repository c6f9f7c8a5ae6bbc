package core

import (
	"testing"

	"yui/app/view"
)

// The settings window's "show" on a hidden character reaches the desktop
// room through the core's wiring: her window runs again.
func TestSettingsWindowShowsAHiddenCharacter(t *testing.T) {
	l := windowLauncher()
	st := startCore(t, Options{Launch: l.Launch, Exe: "/bin/yui-test"})
	p := st.c.Settings().Get().Presets[0]
	waitFor(t, "window", func() bool { return st.c.sup.Running("pet:" + p.ID) })
	readPage(st.dial(t, view.RolePet, p.ID))
	st.c.desk.SetShown(p.ID, false)
	waitFor(t, "hidden", func() bool { return st.c.desk.Hidden(p.ID) && !st.c.sup.Running("pet:"+p.ID) })
	send(t, st.dial(t, view.RoleSettings, ""), map[string]any{"type": "preset_action", "preset": p.ID, "action": "show"})
	waitFor(t, "shown again", func() bool { return !st.c.desk.Hidden(p.ID) && st.c.sup.Running("pet:"+p.ID) })
}
