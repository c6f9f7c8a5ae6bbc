package core

import (
	"testing"
	"time"

	"yui/app/view"
)

func TestMuteVoicesIsSavedAndMutesEverySentence(t *testing.T) {
	t.Parallel() // real-time speech on its own core and demo backend
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
	if !st2.c.desk.State().VoicesMuted {
		t.Fatal("mute lost on restart")
	}
}

func TestQuitFromThePetMenuEndsRunCleanly(t *testing.T) {
	l := windowLauncher()
	st := startCore(t, Options{Launch: l.Launch, Exe: "/bin/yui-test"})
	p := st.c.Settings().Get().Presets[0]
	waitFor(t, "window", func() bool { return st.c.sup.Running("pet:" + p.ID) })
	conn := st.dial(t, view.RolePet, p.ID)
	readPage(conn) // a page answers the core's close as the pages do
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
	st.c.desk.Quit() // twice is fine
}
