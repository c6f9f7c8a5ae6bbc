package body

import (
	"image"
	"sync"
	"time"

	"yui/app/clientctx"
	"yui/app/look"
)

// Posture is what her body does.
type Posture string

// The postures (client-notes §3, plus sleeping).
const (
	Standing Posture = "standing"
	Sitting  Posture = "sitting"
	Peeking  Posture = "peeking"
	Walking  Posture = "walking"
	Dragging Posture = "dragging"
	Sleeping Posture = "sleeping"
)

// Perch is the window she is on.
type Perch struct {
	// ID is the OS's window id (an X window, a HWND); 0 for none.
	ID    uint64
	App   string
	Title string
}

// State is her body at one moment.
type State struct {
	Posture Posture
	// Since is when Posture (or the perch) last changed.
	Since time.Time
	// At is her window's top-left corner, absolute screen pixels.
	At image.Point
	// Monitor is the monitor holding her.
	Monitor int
	// Perch is the window she stands or sits on; nil on the ground.
	Perch *Perch
	// Moving is true while she walks, falls or is dragged.
	Moving bool
	// Side is the screen edge she peeks from (left or right) while
	// peeking; Facing the way she looks while walking (left or right).
	Side   string
	Facing string
}

// Body holds one character's State.
type Body struct {
	now      func() time.Time
	onChange func(State)

	mu sync.Mutex
	st State
}

// New returns a standing body at at; now is the clock (nil: time.Now);
// onChange, when set, hears every change.
func New(at image.Point, monitor int, now func() time.Time, onChange func(State)) *Body {
	if now == nil {
		now = time.Now
	}
	return &Body{now: now, onChange: onChange, st: State{Posture: Standing, At: at, Monitor: monitor, Since: now()}}
}

// State returns the current state.
func (b *Body) State() State {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.st
}

// Update changes the state with fn. Since is stamped when the posture or
// the perch changed; OnChange hears the new state when anything did.
func (b *Body) Update(fn func(*State)) State {
	b.mu.Lock()
	old := b.st
	fn(&b.st)
	if b.st.Posture != old.Posture || !samePerch(b.st.Perch, old.Perch) {
		b.st.Since = b.now()
	}
	st := b.st
	changed := st != old
	b.mu.Unlock()
	if changed && b.onChange != nil {
		b.onChange(st)
	}
	return st
}

func samePerch(a, b *Perch) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// Look is the state as `look at: body` answers it.
func (s State) Look() look.BodyState {
	b := look.BodyState{Position: look.Point{X: s.At.X, Y: s.At.Y}, Monitor: s.Monitor, Posture: string(s.Posture), Moving: s.Moving}
	if s.Perch != nil {
		b.PerchedOn = &look.Perch{App: s.Perch.App, Title: s.Perch.Title}
	}
	return b
}

// Context is the state as the client_context body line says it.
func (s State) Context() clientctx.Body {
	b := clientctx.Body{Posture: clientctx.Posture(s.Posture), Since: s.Since}
	if s.Perch != nil {
		b.On = s.Perch.App
	}
	return b
}
