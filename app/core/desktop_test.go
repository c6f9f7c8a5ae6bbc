package core

import (
	"os"
	"sync"
	"testing"
	"time"

	"yui/app/autostart"
	"yui/app/settings"
	"yui/app/view"
)

// changes records what OnDesktopChange reports.
type changes struct {
	mu   sync.Mutex
	last []DesktopState
}

func (c *changes) add(s DesktopState) {
	c.mu.Lock()
	c.last = append(c.last, s)
	c.mu.Unlock()
}

func (c *changes) latest() (DesktopState, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.last) == 0 {
		return DesktopState{}, 0
	}
	return c.last[len(c.last)-1], len(c.last)
}

func twoCharacters(t *testing.T) string {
	dir := t.TempDir()
	s, _, _ := settings.Open(dir)
	s.Update(func(x *settings.Settings) { x.Presets = append(x.Presets, settings.NewPreset("Mio")) })
	return dir
}

func TestPetMenuHidesHerAndTheTrayShowsHerAgain(t *testing.T) {
	dir := twoCharacters(t)
	l := &windowLauncher{}
	ch := &changes{}
	c := func() *started {
		st := startCore(t, Options{ConfigDir: dir, Launch: l.launch, Exe: "/bin/yui-test"})
		st.c.OnDesktopChange(ch.add)
		return st
	}()
	all := c.c.Settings().Get()
	mio := all.Presets[1].ID
	waitFor(t, "both windows", func() bool { return l.count("pet:"+mio) == 1 && c.c.sup.Running("pet:"+mio) })
	if s := c.c.DesktopState(); len(s.Characters) != 2 || s.Characters[1].Name != "Mio" || !s.Characters[1].Shown {
		t.Fatalf("state %+v", s)
	}

	page := c.dial(t, view.RolePet, mio)
	pr := readPage(page)
	pr.wait(t, "the desktop topic", func(_ []map[string]any, l map[string]map[string]any) bool { return l["desktop"] != nil })
	send(t, page, map[string]any{"type": "desktop_action", "action": "hide"})
	waitFor(t, "Mio's window stopped", func() bool { return !c.c.sup.Supervised("pet:" + mio) })
	if s, n := ch.latest(); n == 0 || s.Characters[1].Shown || !s.Characters[0].Shown {
		t.Fatalf("after hide the tray got %+v (%d changes)", s, n)
	}
	// Her session stays: she is still a pet of the core.
	if c.c.pet(mio) == nil {
		t.Fatal("hiding ended Mio's session")
	}

	c.c.SetShown(mio, true)
	waitFor(t, "Mio's window started again", func() bool { return l.count("pet:"+mio) == 2 && c.c.sup.Running("pet:"+mio) })
	if s, _ := ch.latest(); !s.Characters[1].Shown {
		t.Fatalf("after show the tray got %+v", s)
	}
}

func TestShowCharactersBringsBackEveryHiddenOne(t *testing.T) {
	dir := twoCharacters(t)
	l := &windowLauncher{}
	st := startCore(t, Options{ConfigDir: dir, Launch: l.launch, Exe: "/bin/yui-test"})
	all := st.c.Settings().Get()
	for _, p := range all.Presets {
		waitFor(t, "window", func() bool { return st.c.sup.Running("pet:" + p.ID) })
		st.c.SetShown(p.ID, false)
	}
	for _, p := range all.Presets {
		waitFor(t, "window stopped", func() bool { return !st.c.sup.Supervised("pet:" + p.ID) })
	}
	st.c.ShowWindows()
	for _, p := range all.Presets {
		waitFor(t, "window back", func() bool { return l.count("pet:"+p.ID) == 2 && st.c.sup.Running("pet:"+p.ID) })
	}
	for _, ch := range st.c.DesktopState().Characters {
		if !ch.Shown {
			t.Fatalf("%s still hidden", ch.Name)
		}
	}
}

func TestSwitchedOffAndOnAgainSheIsShown(t *testing.T) {
	dir := twoCharacters(t)
	l := &windowLauncher{}
	st := startCore(t, Options{ConfigDir: dir, Launch: l.launch, Exe: "/bin/yui-test"})
	all := st.c.Settings().Get()
	mio := all.Presets[1].ID
	waitFor(t, "window", func() bool { return st.c.sup.Running("pet:" + mio) })
	st.c.SetShown(mio, false)
	conn := st.dial(t, view.RoleSettings, "")
	page := readPage(conn)
	req := formOf(all)
	req.RequestID = "off"
	req.Presets[1].Enabled = false
	send(t, conn, saveMsg(req))
	page.result(t, "off")
	if s := st.c.DesktopState(); len(s.Characters) != 1 {
		t.Fatalf("a switched-off character is listed: %+v", s)
	}
	req.RequestID = "on"
	req.Presets[1].Enabled = true
	send(t, conn, saveMsg(req))
	page.result(t, "on")
	if s := st.c.DesktopState(); len(s.Characters) != 2 || !s.Characters[1].Shown {
		t.Fatalf("switched on again: %+v", s)
	}
}

func TestMuteVoicesIsSavedAndMutesEverySentence(t *testing.T) {
	dir := t.TempDir()
	st := startCore(t, Options{ConfigDir: dir, Demo: true, DemoAddr: "127.0.0.1:0"})
	p := st.c.Settings().Get().Presets[0]
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "ready", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["plate"] != nil && l["plate"]["kind"] == "" && l["desktop"] != nil && l["desktop"]["voices_muted"] == false
	})
	send(t, conn, map[string]any{"type": "desktop_action", "action": "mute"})
	page.wait(t, "desktop says muted", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["desktop"]["voices_muted"] == true
	})
	if !readFile(t, dir).Audio.Muted {
		t.Fatal("mute not saved")
	}
	page.wait(t, "the voice topic says every character is muted", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["voice"] != nil && l["voice"]["global_muted"] == true
	})
	send(t, conn, map[string]any{"type": "send_text", "text": "hello"})
	page.wait(t, "a sentence shown, not heard", func(all []map[string]any, _ map[string]map[string]any) bool {
		shown := false
		for _, m := range all {
			if m["type"] == "bubble" && m["kind"] == "speech" && m["text"] != "" {
				shown = true
			}
			if m["type"] == "character" && m["voiced"] == true {
				t.Fatalf("heard while muted: %v", m)
			}
		}
		return shown
	})
	st.stop()
	// The next start is muted too.
	st2 := startCore(t, Options{ConfigDir: dir})
	if !st2.c.DesktopState().VoicesMuted {
		t.Fatal("mute lost on restart")
	}
}

func TestStartAtLoginFromThePetMenuWritesTheOSEntry(t *testing.T) {
	home := t.TempDir()
	as, err := autostart.New("/usr/bin/yui", nil, home)
	if err != nil {
		t.Fatal(err)
	}
	st := startCore(t, Options{Autostart: as})
	p := st.c.Settings().Get().Presets[0]
	conn := st.dial(t, view.RolePet, p.ID)
	page := readPage(conn)
	page.wait(t, "desktop topic", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["desktop"] != nil && l["desktop"]["start_at_login_available"] == true && l["desktop"]["start_at_login"] == false
	})
	send(t, conn, map[string]any{"type": "desktop_action", "action": "start_at_login_on"})
	page.wait(t, "checked", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["desktop"]["start_at_login"] == true
	})
	if _, err := os.Stat(as.Where()); err != nil {
		t.Fatalf("no entry: %v", err)
	}
	send(t, conn, map[string]any{"type": "desktop_action", "action": "start_at_login_off"})
	page.wait(t, "unchecked", func(_ []map[string]any, l map[string]map[string]any) bool {
		return l["desktop"]["start_at_login"] == false
	})
	if _, err := os.Stat(as.Where()); !os.IsNotExist(err) {
		t.Fatalf("entry left: %v", err)
	}
}

func TestQuitFromThePetMenuEndsRunCleanly(t *testing.T) {
	l := &windowLauncher{}
	st := startCore(t, Options{Launch: l.launch, Exe: "/bin/yui-test"})
	p := st.c.Settings().Get().Presets[0]
	waitFor(t, "window", func() bool { return st.c.sup.Running("pet:" + p.ID) })
	conn := st.dial(t, view.RolePet, p.ID)
	send(t, conn, map[string]any{"type": "desktop_action", "action": "quit"})
	select {
	case err := <-st.done:
		st.done <- err // for stop in the cleanup
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not end after quit")
	}
	if st.c.sup.Running("pet:" + p.ID) {
		t.Fatal("a window outlived the core")
	}
	st.c.Quit() // twice is fine
}

func TestOnlyPetPagesSendDesktopActions(t *testing.T) {
	st := startCore(t, Options{})
	conn := st.dial(t, view.RoleSettings, "")
	send(t, conn, map[string]any{"type": "desktop_action", "action": "quit"})
	// A message the core reads after it is handled in order: a later
	// save's answer proves the quit was read (and refused).
	page := readPage(conn)
	req := formOf(st.c.Settings().Get())
	req.RequestID = "after"
	send(t, conn, saveMsg(req))
	page.result(t, "after")
	select {
	case err := <-st.done:
		st.done <- err
		t.Fatal("the settings page quit the core")
	default:
	}
}
