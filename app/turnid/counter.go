package turnid

import (
	"strconv"
	"sync"
	"time"
)

// Counter issues client turn ids. The zero value is not usable; call New.
type Counter struct {
	mu    sync.Mutex
	first uint64 // the first id this run issues
	next  uint64 // the id the next call to Next returns
}

// New returns a Counter seeded with now() in Unix milliseconds.
func New(now func() time.Time) *Counter {
	ms := now().UnixMilli()
	if ms < 0 {
		ms = 0
	}
	return &Counter{first: uint64(ms), next: uint64(ms)}
}

// Next returns a fresh turn id.
func (c *Counter) Next() string {
	c.mu.Lock()
	n := c.next
	c.next++
	c.mu.Unlock()
	return strconv.FormatUint(n, 10)
}

// Issued reports how many ids this Counter has handed out.
func (c *Counter) Issued() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.next - c.first
}

// IsClientMinted reports whether id is one this Counter issued. Ids of other
// runs and backend-minted ids report false.
func (c *Counter) IsClientMinted(id string) bool {
	n, ok := parse(id)
	if !ok {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return n >= c.first && n < c.next
}

// parse reads a canonical decimal id: digits only, no leading zero unless
// the id is "0".
func parse(id string) (uint64, bool) {
	if id == "" || len(id) > 20 || (len(id) > 1 && id[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(id, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
