package frontmost

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// fakeSource is a window manager the test drives.
type fakeSource struct {
	mu      sync.Mutex
	active  Window
	ok      bool
	changed func()
	watch   chan struct{}
}

func (f *fakeSource) Active() (Window, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.active, f.ok
}

func (f *fakeSource) Watch(ctx context.Context, changed func()) error {
	f.mu.Lock()
	f.changed = changed
	f.mu.Unlock()
	close(f.watch)
	<-ctx.Done()
	return nil
}

func (f *fakeSource) activate(w Window) {
	f.mu.Lock()
	f.active, f.ok = w, true
	changed := f.changed
	f.mu.Unlock()
	changed()
}

func TestTrackerFollowsTheActiveWindowAndSkipsYuis(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := &fakeSource{watch: make(chan struct{})}
		tr := New(src, nil, nil)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go tr.Run(ctx)
		<-src.watch
		if tr.Current() != nil {
			t.Fatal("frontmost known before any window was active")
		}
		start := time.Now()
		src.activate(Window{ID: 1, App: "Firefox", Title: "Release notes"})
		time.Sleep(12 * time.Minute)
		// The title changes in the same window: the time still counts
		// from when the window became frontmost.
		src.activate(Window{ID: 1, App: "Firefox", Title: "Changelog"})
		f := tr.Current()
		if f == nil || f.App != "Firefox" || f.Title != "Changelog" || !f.Since.Equal(start) {
			t.Fatalf("frontmost %+v, want Firefox — Changelog since %v", f, start)
		}
		// The user clicks the character to type: Yui's window is active,
		// and the app they came from stays frontmost.
		src.activate(Window{ID: 7, App: "Yui", Title: "Yui — Mika"})
		src.activate(Window{ID: 8, App: "Yui", Title: "Yui — Settings"})
		if f := tr.Current(); f == nil || f.App != "Firefox" || !f.Since.Equal(start) {
			t.Fatalf("Yui's own window counted as frontmost: %+v", f)
		}
		// Another app: a new window, a new time.
		time.Sleep(time.Minute)
		src.activate(Window{ID: 2, App: "XTerm", Title: "bash"})
		if f := tr.Current(); f == nil || f.App != "XTerm" || !f.Since.Equal(start.Add(12*time.Minute+time.Minute)) {
			t.Fatalf("frontmost %+v after switching to XTerm", f)
		}
	})
}

func TestOwnWindows(t *testing.T) {
	for w, want := range map[Window]bool{
		{App: "Yui", Title: "Yui — Yui"}:         true,
		{App: "yui", Title: "Yui — Settings"}:    true,
		{App: "Yui", Title: "yui"}:               true, // GTK's leader window
		{App: "Firefox", Title: "Yui — fan art"}: false,
	} {
		if Own(w) != want {
			t.Errorf("Own(%+v) = %v", w, !want)
		}
	}
}
