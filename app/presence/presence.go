package presence

import "time"

// TypingWindow: input this recent counts as typing. The OS tells input,
// not keys: a moving mouse holds her back too, which errs on the quiet
// side (docs/proactive.md).
const TypingWindow = 3 * time.Second

// reader is one OS's readings.
type reader interface {
	idle() (time.Duration, bool)
	fullscreen() bool
	locked() bool
}

// System reads the platform's input and windows. Its methods may be
// called from any goroutine.
type System struct{ r reader }

// New returns the platform's reader (display: the X display, "" for
// $DISPLAY; ignored elsewhere).
func New(display string) *System { return &System{r: newReader(display)} }

// Idle is how long since the user's last input in any app.
func (s *System) Idle() (time.Duration, bool) { return s.r.idle() }

// Typing reports input within TypingWindow.
func (s *System) Typing() bool {
	d, ok := s.r.idle()
	return ok && d < TypingWindow
}

// Locked reports whether the screen saver (often the lock screen) shows,
// where the desktop reports it (X11's MIT-SCREEN-SAVER state).
func (s *System) Locked() bool { return s.r.locked() }

// Fullscreen reports whether the frontmost window fills its monitor.
func (s *System) Fullscreen() bool { return s.r.fullscreen() }
