package gaze

import (
	"context"
	"os"
	"sync"

	"yui/app/x11"
)

// System is the X server of $DISPLAY (XInput2 raw motion,
// x11.WatchPointerMotion), or nil without one.
func System() Source {
	if os.Getenv("DISPLAY") == "" {
		return nil
	}
	return &x11Source{}
}

type x11Source struct {
	mu sync.Mutex
	d  *x11.Display // opened on first use, kept; closed after an error
}

func (s *x11Source) Watch(ctx context.Context, moved func()) error {
	return x11.WatchPointerMotion(ctx, "", moved)
}

func (s *x11Source) Position() (int, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.d == nil {
		d, err := x11.Open("")
		if err != nil {
			return 0, 0, err
		}
		s.d = d
	}
	x, y, err := s.d.Pointer()
	if err != nil {
		s.d.Close()
		s.d = nil
	}
	return x, y, err
}
