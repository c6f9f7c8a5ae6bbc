package permission

import (
	"fmt"
	"sync/atomic"
)

// Grant is one permitted capture of one monitor. Only a Gate mints valid
// grants; Use consumes it.
type Grant struct {
	monitor int
	valid   bool
	used    atomic.Bool
}

func newGrant(monitor int) *Grant { return &Grant{monitor: monitor, valid: true} }

// Monitor is the monitor the grant covers (-1 for a nil grant).
func (g *Grant) Monitor() int {
	if g == nil {
		return -1
	}
	return g.monitor
}

// Use consumes the grant and returns its monitor. A nil, zero or already
// used grant fails with ErrNoGrant. Safe for concurrent use: exactly one Use
// of a grant succeeds.
func (g *Grant) Use() (int, error) {
	if g == nil || !g.valid {
		return 0, fmt.Errorf("capture refused: %w", ErrNoGrant)
	}
	if !g.used.CompareAndSwap(false, true) {
		return 0, fmt.Errorf("capture refused: grant already used: %w", ErrNoGrant)
	}
	return g.monitor, nil
}
