package shell

import (
	"net/url"
	"sync"

	"yui/app/x11"
)

// PageConfig is what the page needs to connect to the core.
type PageConfig struct {
	// ViewURL is the core's view WebSocket URL with the page's own token
	// (it admits only this window's page), role and preset.
	ViewURL string `json:"view_url"`
	Role    string `json:"role"`
	Preset  string `json:"preset"`
	// Lang is the UI language the core handed this process (LangEnv);
	// "" lets the page follow the webview's locale.
	Lang string `json:"lang,omitempty"`
}

// Rect is a rectangle in CSS pixels of the page.
type Rect struct {
	X int `json:"x"`
	Y int `json:"y"`
	W int `json:"w"`
	H int `json:"h"`
}

// Bridge is bound into the page (window.go.shell.Bridge). Its methods are
// called by the Wails runtime from its own goroutines.
type Bridge struct {
	cfg    PageConfig
	opener opener

	mu      sync.Mutex
	onShape func([]x11.Rect)
	onMove  func(x, y int)
	onStep  func(step string, epochMs float64)
	moved   chan struct{}
}

// StartupStep tells the shell the page reached one of its start-up steps
// ("view_socket": its socket to the core is open; "first_state": it has
// applied the core's first sticky state) at epochMs (its clock, epoch
// milliseconds); the shell logs it once as a window_timing line. Other
// steps are ignored. Never blocks.
func (b *Bridge) StartupStep(step string, epochMs float64) {
	b.mu.Lock()
	f := b.onStep
	b.mu.Unlock()
	if f != nil {
		f(step, epochMs)
	}
}

func (b *Bridge) setStepFunc(f func(step string, epochMs float64)) {
	b.mu.Lock()
	b.onStep = f
	b.mu.Unlock()
}

func newBridge(coreURL, pageToken, role, preset string, op opener) *Bridge {
	q := url.Values{"token": {pageToken}, "role": {role}, "preset": {preset}}
	return &Bridge{cfg: PageConfig{ViewURL: coreURL + "?" + q.Encode(), Role: role, Preset: preset}, opener: op, moved: make(chan struct{}, 1)}
}

// OpenURL opens an http or https link in the user's browser. Anything
// else (file:, a custom scheme, a malformed URL) is refused with
// ErrNotWebURL before it reaches the OS; the browser never inherits the
// window's token. The page's links use it instead of the Wails runtime's
// BrowserOpenURL, which the window's guard refuses.
func (b *Bridge) OpenURL(u string) error { return b.opener.open(u) }

// Moved tells the shell the page finished dragging the window, so the new
// position is read and reported at once. Never blocks.
func (b *Bridge) Moved() {
	select {
	case b.moved <- struct{}{}:
	default:
	}
}

// MoveWindow moves the window's top-left corner to (x, y) in absolute
// screen pixels, as WindowGetPosition reads them (the runtime's
// WindowSetPosition is relative to the window's monitor: app/shell
// move_*.go). The page's drag uses it. Never blocks.
func (b *Bridge) MoveWindow(x, y int) {
	b.mu.Lock()
	f := b.onMove
	b.mu.Unlock()
	if f != nil {
		f(x, y)
	}
}

func (b *Bridge) setMoveFunc(f func(x, y int)) {
	b.mu.Lock()
	b.onMove = f
	b.mu.Unlock()
}

// Config returns the page's connection settings.
func (b *Bridge) Config() PageConfig { return b.cfg }

// SetInputRegion sets the parts of the window that take clicks: the page
// calls it with the boxes of everything visible whenever its layout
// changes. Everything else is click-through (X11 only).
func (b *Bridge) SetInputRegion(rects []Rect) {
	b.mu.Lock()
	f := b.onShape
	b.mu.Unlock()
	if f == nil {
		return
	}
	xr := make([]x11.Rect, len(rects))
	for i, r := range rects {
		xr[i] = x11.Rect{X: r.X, Y: r.Y, W: r.W, H: r.H}
	}
	f(xr)
}

func (b *Bridge) setShapeFunc(f func([]x11.Rect)) {
	b.mu.Lock()
	b.onShape = f
	b.mu.Unlock()
}
