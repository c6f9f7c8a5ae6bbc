package history

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openTest(t testing.TB, dir string) *DB {
	t.Helper()
	d, err := Open(dir, "p", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

var words = strings.Fields("the cat sat on a warm mat while rain fell over quiet hills and rivers ran toward an old grey sea " +
	"she said hello asked about tea remembered music talked of code tests builds windows screens lamps")

// fill adds n rows to conversation conv in one transaction: replies of
// about twenty words each; row i*every holds the word "zephyr".
func fill(t testing.TB, d *DB, conv int64, from uint64, n, every int) {
	t.Helper()
	rows := make([]Row, 0, n)
	for i := range n {
		var b strings.Builder
		for k := range 20 {
			b.WriteString(words[(i*7+k*3)%len(words)])
			b.WriteByte(' ')
		}
		if every > 0 && i%every == 0 {
			b.WriteString("zephyr")
		}
		rows = append(rows, Row{ID: from + uint64(i), Conv: conv, TurnID: fmt.Sprint("t", i), Kind: "reply", Text: b.String(), State: "done", At: int64(i)})
	}
	if err := d.write(false, func(c *conn) error { return putRows(c, rows) }); err != nil {
		t.Fatal(err)
	}
}

func TestFilesAre0600AndReopen(t *testing.T) {
	dir := t.TempDir()
	d := openTest(t, dir)
	if err := d.Put(false, Row{ID: 1, Conv: 1, Kind: "user", Text: "hi", At: 1}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"history-p.db", "history-p.db-wal", "history-p.db-shm"} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want mode 0600", f, fi, err)
		}
	}
	d.Close()
	again := openTest(t, dir)
	if st, err := again.State(); err != nil || st.NextID != 2 || st.Conv != 1 {
		t.Fatalf("state %+v %v", st, err)
	}
}

func TestANewerSchemaIsRefused(t *testing.T) {
	dir := t.TempDir()
	d := openTest(t, dir)
	d.write(false, func(c *conn) error { return c.exec("PRAGMA user_version = 99") })
	d.Close()
	if _, err := Open(dir, "p", nil); err == nil || !strings.Contains(err.Error(), "newer Yui") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

func TestPagesWalkTheWholeHistory(t *testing.T) {
	d := openTest(t, "")
	fill(t, d, 1, 1, 120, 0)
	fill(t, d, 2, 121, 30, 0)
	d.Put(false, Row{ID: 151, Conv: 2, Kind: "user", Sent: "a trigger", At: 1}) // not shown
	var got []uint64
	before := uint64(0)
	for pages := 0; ; pages++ {
		rows, more, err := d.Page(before, 50)
		if err != nil {
			t.Fatal(err)
		}
		for i := len(rows) - 1; i >= 0; i-- {
			got = append(got, rows[i].ID)
		}
		if !more {
			break
		}
		before = rows[0].ID
		if pages > 10 {
			t.Fatal("pages never end")
		}
	}
	if len(got) != 150 || got[0] != 150 || got[149] != 1 {
		t.Fatalf("walked %d rows (%v…), want 150 from 150 down to 1", len(got), got[:3])
	}
	conv, err := d.Conversation(1)
	if err != nil || len(conv) != 120 {
		t.Fatalf("conversation 1: %d rows %v", len(conv), err)
	}
}

func TestSearchFindsWordsAndPrefixesNotOperators(t *testing.T) {
	d := openTest(t, "")
	d.Put(false,
		Row{ID: 1, Conv: 1, Kind: "user", Text: "Do you remember the lighthouse?", At: 1},
		Row{ID: 2, Conv: 1, Kind: "reply", Text: "Of course.", Reasoning: "The user means the lighthouse trip in Maine.", At: 2},
		Row{ID: 3, Conv: 2, Kind: "reply", Text: "Café au lait, NOT tea", At: 3},
		Row{ID: 4, Conv: 2, Kind: "user", Sent: "lighthouse trigger", At: 4}, // not shown
	)
	hits, err := d.Search("lighthouse", 10)
	if err != nil || len(hits) != 2 || hits[0].ID != 2 || hits[1].ID != 1 {
		t.Fatalf("hits %+v %v, want rows 2 then 1", hits, err)
	}
	if !strings.Contains(hits[1].Snippet, Mark+"lighthouse"+EndMark) {
		t.Fatalf("snippet %q has no marked match", hits[1].Snippet)
	}
	if hits, _ := d.Search("remem", 10); len(hits) != 1 || hits[0].ID != 1 {
		t.Fatalf("prefix: %+v", hits)
	}
	if hits, _ := d.Search("cafe", 10); len(hits) != 1 || hits[0].ID != 3 {
		t.Fatalf("diacritics: %+v", hits)
	}
	// What the user types is words, never FTS syntax.
	for _, q := range []string{`NOT tea`, `"unbalanced`, `text:lait`, `a OR`, `*`, `NEAR(`} {
		if _, err := d.Search(q, 10); err != nil {
			t.Fatalf("Search(%q): %v", q, err)
		}
	}
	if hits, _ := d.Search("NOT tea", 10); len(hits) != 1 || hits[0].ID != 3 {
		t.Fatalf("NOT is a word: %+v", hits)
	}
}

func TestTrimKeepsTheNewest(t *testing.T) {
	d := openTest(t, "")
	fill(t, d, 1, 1, 50, 10)
	if err := d.Trim(20); err != nil {
		t.Fatal(err)
	}
	rows, more, _ := d.Page(0, 100)
	if len(rows) != 20 || more || rows[0].ID != 31 {
		t.Fatalf("%d rows from %d after Trim(20)", len(rows), rows[0].ID)
	}
	if hits, _ := d.Search("zephyr", 100); len(hits) != 2 { // rows 41 and 31… only those left
		t.Fatalf("search after trim: %d hits, want 2", len(hits))
	}
}
