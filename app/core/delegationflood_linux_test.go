package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/app/view"
	"yui/transport"
)

// writeBytes is what this process has sent to the storage layer
// (/proc/self/io write_bytes, counted when pages are dirtied): the bytes
// written to files, not to sockets.
func writeBytes(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(b, []byte{'\n'}) {
		if v, ok := strings.CutPrefix(string(l), "write_bytes: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	t.Fatal("no write_bytes in /proc/self/io")
	return 0
}

// countsFileWrites reports whether write_bytes sees writes to files in
// dir (not on a file system that bypasses the storage layer, like tmpfs).
func countsFileWrites(t *testing.T, dir string) bool {
	before := writeBytes(t)
	p := filepath.Join(dir, "probe")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(make([]byte, 1<<20))
	f.Sync()
	f.Close()
	os.Remove(p)
	return writeBytes(t)-before >= 1<<20
}

// A delegation flood through the whole core (issue 23: 2,000 frames, 0.9
// MB from the backend, made the core write 487 MB — every item a
// transcript row, every row a rewrite and fsync of the whole transcript,
// every frame a rewrite of the history): the bytes written per delegation
// item stay bounded.
func TestDelegationFloodWritesBoundedBytesPerItem(t *testing.T) {
	b := newPushBackend(t)
	st, _ := coreOn(t, b)
	if !countsFileWrites(t, st.c.opts.ConfigDir) {
		t.Skip("this file system does not count file writes in /proc/self/io write_bytes (tmpfs)")
	}
	_, page := st.connectedPet(t)
	chat := b.chat(t)
	// 500 frames: under -race on a loaded machine 2,000 take past hangLimit.
	const frames = 500
	summary := strings.Repeat("All three logs are under 10 MB. ", 6)
	sent := 0
	start := time.Now()
	before := writeBytes(t)
	for k := range frames {
		// One new task a frame; the one before it finished; the one before
		// that still listed: a list of three.
		var items []transport.Delegation
		for i := max(0, k-2); i <= k; i++ {
			it := transport.Delegation{ID: fmt.Sprintf("d-%d", i), Title: fmt.Sprintf("Task number %d", i), StartedAt: int64(1_789_000_000_000 + i), State: "running"}
			if i < k {
				it.State, it.Status, it.EndedAt, it.Summary = "done", "ok", int64(1_789_000_000_500+i), summary
			}
			items = append(items, it)
		}
		j, _ := json.Marshal(items)
		sent += len(j)
		if err := b.srv.SetDelegations(chat, items); err != nil {
			t.Fatal(err)
		}
	}
	last := fmt.Sprintf("d-%d", frames-1)
	page.wait(t, "the last delegations frame", func(_ []map[string]any, l map[string]map[string]any) bool {
		d := l[view.TypeDelegations]
		if d == nil {
			return false
		}
		b, _ := json.Marshal(d)
		return strings.Contains(string(b), `"`+last+`"`)
	})
	applied := time.Since(start)
	if err := st.stop(); err != nil { // flushes what waits
		t.Fatal(err)
	}
	written := writeBytes(t) - before
	perItem := float64(written) / frames
	t.Logf("%d frames (%d bytes of items from the backend) applied in %v; the core wrote %d bytes: %.0f per delegation item", frames, sent, applied.Round(time.Millisecond), written, perItem)
	if perItem > 8<<10 {
		t.Fatalf("%.0f bytes written per delegation item, want at most 8 KiB", perItem)
	}
}
