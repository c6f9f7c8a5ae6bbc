package frontmost

import (
	"context"
	"sync"

	"yui/app/x11"
)

// System is the platform's Source: the X display of $DISPLAY.
func System() Source { return &X11{} }

// X11 is the Source of an X display ("" = $DISPLAY). It opens its own
// connections.
type X11 struct {
	Display string

	mu sync.Mutex
	d  *x11.Display
}

// Active reads _NET_ACTIVE_WINDOW.
func (s *X11) Active() (Window, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d == nil {
		d, err := x11.Open(s.Display)
		if err != nil {
			return Window{}, false
		}
		s.d = d
	}
	c, err := s.d.Active()
	if err != nil {
		return Window{}, false
	}
	return Window{ID: c.ID, App: c.App, Title: c.Title}, true
}

// Watch follows _NET_ACTIVE_WINDOW changes on a connection of its own.
func (s *X11) Watch(ctx context.Context, changed func()) error {
	d, err := x11.Open(s.Display)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.WatchActive(ctx, changed)
}

// Close ends Active's connection.
func (s *X11) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d != nil {
		s.d.Close()
		s.d = nil
	}
}
