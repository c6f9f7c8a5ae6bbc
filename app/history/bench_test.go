package history

import (
	"database/sql/driver"
	"os"
	"sync"
	"testing"
	"time"
)

// searchLike is the baseline: the same question as Search answered by a
// plain LIKE scan of every row.
func (d *DB) searchLike(q string, limit int) (n int, err error) {
	err = d.read(func(c *conn) error {
		return c.query("SELECT id FROM entries WHERE (text LIKE ? OR reasoning LIKE ?) AND "+shown+" ORDER BY id DESC LIMIT ?",
			func([]driver.Value) error { n++; return nil }, "%"+q+"%", "%"+q+"%", limit)
	})
	return n, err
}

const benchRows = 100_000

// big is a directory holding a history of benchRows rows, made once for
// the tests and benchmarks that need it (removed by TestMain).
var big struct {
	once sync.Once
	dir  string
	err  error
}

func bigDir(tb testing.TB) string {
	tb.Helper()
	big.once.Do(func() {
		big.dir, big.err = os.MkdirTemp("", "yui-history-big-")
		if big.err != nil {
			return
		}
		d, err := Open(big.dir, "p", nil)
		if err != nil {
			big.err = err
			return
		}
		defer d.Close()
		// One match in a thousand rows: a word said now and then.
		fill(tb, d, 1, 1, benchRows, 1000)
	})
	if big.err != nil {
		tb.Fatal(big.err)
	}
	return big.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if big.dir != "" {
		os.RemoveAll(big.dir)
	}
	os.Exit(code)
}

func bigHistory(tb testing.TB) *DB {
	d, err := Open(bigDir(tb), "p", nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return d
}

// BenchmarkSearch: the full-text search over 100,000 rows, and the LIKE
// scan it replaces, in the same run (docs/bench/history.txt).
func BenchmarkSearch(b *testing.B) {
	d := bigHistory(b)
	b.Run("fts", func(b *testing.B) {
		for b.Loop() {
			if hits, err := d.Search("zephyr", 50); err != nil || len(hits) != 50 {
				b.Fatal(len(hits), err)
			}
		}
	})
	b.Run("like", func(b *testing.B) {
		for b.Loop() {
			if n, err := d.searchLike("zephyr", 50); err != nil || n != 50 {
				b.Fatal(n, err)
			}
		}
	})
}

// best is the fastest of n runs of fn.
func best(n int, fn func()) time.Duration {
	b := time.Duration(1 << 62)
	for range n {
		start := time.Now()
		fn()
		b = min(b, time.Since(start))
	}
	return b
}

// Search over 100,000 rows answers within 50 ms, and faster than a LIKE
// scan measured in the same run: the ratio is the test (a loaded machine
// slows both).
func TestSearchBeatsALikeScanOver100kRows(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("fills 100,000 rows (measured without -short and -race)")
	}
	d := bigHistory(t)
	fts := best(5, func() {
		if hits, err := d.Search("zephyr", 50); err != nil || len(hits) != 50 {
			t.Fatal(len(hits), err)
		}
	})
	like := best(5, func() {
		if n, err := d.searchLike("zephyr", 50); err != nil || n != 50 {
			t.Fatal(n, err)
		}
	})
	// A rare word: the LIKE scan reads everything, the index a few pages.
	ftsRare := best(5, func() { d.Search("zephyr sea", 50) })
	likeRare := best(5, func() { d.searchLike("zephyr sea", 50) })
	t.Logf("100,000 rows: search %v, LIKE scan %v (%.1f× faster); two words %v, LIKE %v (%.1f×)",
		fts, like, float64(like)/float64(fts), ftsRare, likeRare, float64(likeRare)/float64(ftsRare))
	if fts*3 > like {
		t.Fatalf("search %v is not well under the LIKE scan's %v", fts, like)
	}
	if fts > 50*time.Millisecond && fts*10 > like {
		t.Fatalf("search took %v (over 50 ms) and is not 10× the LIKE scan's %v", fts, like)
	}
}

// The message window opens in the same time with 100,000 rows as with
// 10: opening the database and reading its first page (what the window
// shows when it opens) cost the same, the newest rows by primary key,
// never a scan. The ratio is the test (measured in the same run).
func TestTheWindowOpensAsFastWith100kRowsAsWith10(t *testing.T) {
	if testing.Short() || raceDetector {
		t.Skip("fills 100,000 rows (measured without -short and -race)")
	}
	smallDir := t.TempDir()
	small := openTest(t, smallDir)
	fill(t, small, 1, 1, 10, 0)
	small.Close()
	open := func(dir string, want int) func() {
		return func() {
			d, err := Open(dir, "p", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.State(); err != nil {
				t.Fatal(err)
			}
			rows, _, err := d.Page(0, PageRows)
			if err != nil || len(rows) != want {
				t.Fatal(len(rows), err)
			}
		}
	}
	s := best(15, open(smallDir, 10))
	b := best(15, open(bigDir(t), PageRows))
	t.Logf("open and first page: %v with 10 rows, %v with 100,000 rows (%d shown): ratio %.2f", s, b, PageRows, float64(b)/float64(s))
	if b > 2*s {
		t.Fatalf("opening 100,000 rows took %v, 10 rows %v: it grows with the history", b, s)
	}
}
