package delegation

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"
)

// fileItems is what the history file holds now (a fresh read of it).
func fileItems(t *testing.T, dir string) int {
	t.Helper()
	return len(open(t, dir).Items())
}

// A flood of delegations frames (issue 23) is saved once a SaveDelay, not
// once a frame: the first frame after a quiet spell is saved at once, the
// frames that follow within SaveDelay are saved together when it passes,
// and Flush saves what still waits.
func TestHistoryFloodSavedOnceASaveDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		dir := t.TempDir()
		h := open(t, dir)
		frame := func(i int) []Item {
			return []Item{{ID: fmt.Sprintf("d-%d", i), Title: "task", State: Running, StartedAt: int64(i)}}
		}
		if err := h.MergeSoon(frame(0), t0); err != nil {
			t.Fatal(err)
		}
		if n := fileItems(t, dir); n != 1 {
			t.Fatalf("the first frame is not on disk at once: %d items in the file", n)
		}
		for i := 1; i < 100; i++ {
			if err := h.MergeSoon(frame(i), t0); err != nil {
				t.Fatal(err)
			}
		}
		if n := fileItems(t, dir); n != 1 {
			t.Fatalf("%d items in the file right after the flood: each frame was saved", n)
		}
		if n := len(h.Items()); n != 100 {
			t.Fatalf("%d items in memory, want 100", n)
		}
		time.Sleep(SaveDelay)
		synctest.Wait()
		if n := fileItems(t, dir); n != 100 {
			t.Fatalf("%d items in the file a SaveDelay after the flood, want 100", n)
		}
		h.MergeSoon(frame(100), t0)
		if err := h.Flush(); err != nil {
			t.Fatal(err)
		}
		if n := fileItems(t, dir); n != 101 {
			t.Fatalf("%d items in the file after Flush, want 101", n)
		}
	})
}
