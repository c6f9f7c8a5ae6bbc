package presence

import (
	"sync"
	"time"

	"yui/app/x11"
)

// x11Reader keeps one connection, reopened after an error.
type x11Reader struct {
	display string
	mu      sync.Mutex
	d       *x11.Display
}

func newReader(display string) reader { return &x11Reader{display: display} }

func (r *x11Reader) with(f func(*x11.Display) error) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.d == nil {
		d, err := x11.Open(r.display)
		if err != nil {
			return false
		}
		r.d = d
	}
	if err := f(r.d); err != nil {
		r.d.Close()
		r.d = nil
		return false
	}
	return true
}

func (r *x11Reader) idle() (time.Duration, bool) {
	var d time.Duration
	ok := r.with(func(x *x11.Display) (err error) { d, err = x.IdleTime(); return err })
	return d, ok
}

func (r *x11Reader) fullscreen() bool {
	var on bool
	r.with(func(x *x11.Display) error {
		f, err := x.ActiveFullscreen()
		if err == x11.ErrNoActive {
			return nil
		}
		on = f
		return err
	})
	return on
}

func (r *x11Reader) locked() bool {
	var on bool
	r.with(func(x *x11.Display) (err error) { on, err = x.ScreenSaverOn(); return err })
	return on
}
