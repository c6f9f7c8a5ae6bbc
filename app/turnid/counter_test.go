package turnid

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

func fixed(ms int64) func() time.Time {
	return func() time.Time { return time.UnixMilli(ms) }
}

func TestNextSeedsFromClockAndCountsUp(t *testing.T) {
	c := New(fixed(1789365854947))
	for i, want := range []string{"1789365854947", "1789365854948", "1789365854949"} {
		if got := c.Next(); got != want {
			t.Fatalf("id %d = %q, want %q", i, got, want)
		}
	}
	if c.Issued() != 3 {
		t.Fatalf("Issued = %d, want 3", c.Issued())
	}
}

func TestClockReadOnlyAtStart(t *testing.T) {
	calls := 0
	c := New(func() time.Time { calls++; return time.UnixMilli(int64(1000 * calls)) })
	c.Next()
	c.Next()
	if calls != 1 {
		t.Fatalf("clock read %d times, want once", calls)
	}
}

func TestClockBeforeEpochSeedsZero(t *testing.T) {
	c := New(fixed(-5))
	if got := c.Next(); got != "0" {
		t.Fatalf("got %q, want 0", got)
	}
	if !c.IsClientMinted("0") {
		t.Fatal("0 should be client minted")
	}
}

func TestIsClientMinted(t *testing.T) {
	c := New(fixed(5000))
	c.Next() // 5000
	c.Next() // 5001
	cases := []struct {
		id   string
		want bool
	}{
		{"5000", true},
		{"5001", true},
		{"5002", false}, // not issued yet
		{"4999", false}, // an earlier run
		{"hermes-7", false},
		{"", false},
		{"05000", false}, // not canonical
		{"+5000", false},
		{"5000 ", false},
		{"-5000", false},
		{"99999999999999999999999", false},
	}
	for _, tc := range cases {
		if got := c.IsClientMinted(tc.id); got != tc.want {
			t.Errorf("IsClientMinted(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}

func TestRestartNeverRepeatsEarlierRunIDs(t *testing.T) {
	run1 := New(fixed(1000))
	var ids []string
	for range 5 {
		ids = append(ids, run1.Next())
	}
	run2 := New(fixed(1010)) // restarted 10 ms later
	for _, id := range ids {
		if run2.IsClientMinted(id) {
			t.Fatalf("run 2 claims run 1 id %s", id)
		}
	}
	if n, _ := strconv.ParseUint(run2.Next(), 10, 64); n <= 1004 {
		t.Fatalf("run 2 id %d overlaps run 1", n)
	}
}

func TestConcurrentNextUnique(t *testing.T) {
	c := New(fixed(1))
	const workers, each = 8, 200
	var mu sync.Mutex
	seen := map[string]bool{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				id := c.Next()
				if !c.IsClientMinted(id) {
					t.Errorf("fresh id %s not client minted", id)
				}
				mu.Lock()
				if seen[id] {
					t.Errorf("duplicate id %s", id)
				}
				seen[id] = true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(seen) != workers*each {
		t.Fatalf("got %d ids, want %d", len(seen), workers*each)
	}
}
