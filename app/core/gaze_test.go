package core

import (
	"context"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"yui/app/settings"
	"yui/app/view"
)

// fakePointer is a desktop pointer the test moves; it counts its watches.
type fakePointer struct {
	mu       sync.Mutex
	x, y     int
	watching int
	moves    chan struct{}
	changed  bell
}

func (f *fakePointer) Watch(ctx context.Context, moved func()) error {
	f.mu.Lock()
	f.watching++
	f.mu.Unlock()
	f.changed.ring()
	defer func() {
		f.mu.Lock()
		f.watching--
		f.mu.Unlock()
		f.changed.ring()
	}()
	for {
		select {
		case <-f.moves:
			moved()
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (f *fakePointer) Position() (int, int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.x, f.y, nil
}

func (f *fakePointer) awaitWatching(t *testing.T, want int) {
	t.Helper()
	limit := time.After(hangLimit)
	for {
		rang := f.changed.next()
		f.mu.Lock()
		n := f.watching
		f.mu.Unlock()
		if n == want {
			return
		}
		select {
		case <-rang:
		case <-limit:
			t.Fatalf("%d pointer watches, want %d", n, want)
		}
	}
}

// The pointer is watched only while a shown character wears a VRM look,
// and her page hears where it is relative to her window.
func TestPointerIsWatchedOnlyForAShownVRMLook(t *testing.T) {
	pages := fstest.MapFS{"vocabulary.json": {Data: []byte(`{"emotion_ids": ["neutral", "happy"], "motion_ids": ["happy"],
		"client_motion_ids": ["idle"], "vrm": {"motion_ids": ["nod"], "client_motion_ids": ["idle"]}}`)}}
	ptr := &fakePointer{moves: make(chan struct{}), x: 1000, y: 700}
	st := startCore(t, Options{Pages: pages, Pointer: ptr})
	preset := st.c.Settings().Get().Presets[0].ID
	ptr.awaitWatching(t, 0) // the built-in SVG look: no watch

	if code, a := postLook(t, st.httpBase(), st.c.wins.PageToken(""), "m.vrm", vrmTestModel(t, "yui-test-1.0.vrm")); code != 200 || !a.OK {
		t.Fatalf("import: %d %+v", code, a)
	}
	if _, _, err := (settingsHost{st.c}).Save(func(s *settings.Settings) error {
		s.Presets[0].Look = "m"
		s.Presets[0].Window = &settings.Position{X: 900, Y: 500}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ptr.awaitWatching(t, 1)
	conn := st.dial(t, view.RolePet, preset)
	page := readPage(conn)
	page.wait(t, "her page connected", func(_ []map[string]any, l map[string]map[string]any) bool { return l["look_art"] != nil })
	ptr.moves <- struct{}{}
	page.wait(t, "the pointer relative to her window", func(_ []map[string]any, l map[string]map[string]any) bool {
		p := l["pointer"]
		return p != nil && p["x"] == 100.0 && p["y"] == 200.0 && p["near"] == true
	})

	st.c.desk.SetShown(preset, false)
	ptr.awaitWatching(t, 0)
	st.c.desk.SetShown(preset, true)
	ptr.awaitWatching(t, 1)
}
