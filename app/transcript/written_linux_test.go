package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// wchar is the bytes this process has passed to write(2) and friends
// (/proc/self/io): every byte the store writes, counted by the kernel.
func wchar(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/io")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.Split(b, []byte{'\n'}) {
		if v, ok := strings.CutPrefix(string(l), "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no wchar in /proc/self/io")
	return 0
}

// A delegation flood (issue 23: each delegation item became a row, and
// each row rewrote and fsynced the whole file — 0.9 MB from the backend
// made the core write 487 MB; one transaction a row would write several
// database pages a row): 2,000 items, each a row added running and
// then marked done with its summary, as the core records them. The bytes
// written per item stay within a small multiple of the item's own rows.
func TestDelegationFloodWritesWhatChanged(t *testing.T) {
	path := t.TempDir()
	s := open(t, path)
	// A transcript that already holds a conversation.
	for i := range MaxEntries {
		s.Add(Entry{TurnID: fmt.Sprint(i), Kind: KindReply, Text: strings.Repeat("words ", 30), State: "done"})
	}
	const items = 2_000
	title := strings.Repeat("Sort the regression test list ", 3)
	summary := strings.Repeat("All three logs are under 10 MB. ", 10)
	var rowBytes int64
	before := wchar(t)
	for i := range items {
		key := fmt.Sprintf("delegation:d-%d", i)
		e := s.Add(Entry{TurnID: key, Kind: KindDelegation, Text: title, State: "running"})
		d, _ := s.Update(key, KindDelegation, true, func(x *Entry) { x.State, x.Text = "done", title+" — "+summary })
		rowBytes += int64(len(mustJSON(e)) + len(mustJSON(d)))
	}
	s.Flush() // what waits for its transaction is counted too
	written := wchar(t) - before
	perItem := float64(written) / items
	ownRows := float64(rowBytes) / items
	t.Logf("%d delegation items: %d bytes written, %.0f per item (its two rows: %.0f bytes)", items, written, perItem, ownRows)
	if perItem > 3*ownRows {
		t.Fatalf("%.0f bytes written per delegation item, want at most 3× its rows (%.0f)", perItem, 3*ownRows)
	}
	s.Close()
	if n := len(open(t, path).Entries()); n != MaxEntries {
		t.Fatalf("%d rows read back, want %d", n, MaxEntries)
	}
}

func mustJSON(e Entry) []byte {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err)
	}
	return b
}
