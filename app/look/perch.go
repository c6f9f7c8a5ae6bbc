package look

import (
	"encoding/json"
	"image"
	"slices"
	"strings"

	"yui/app/capture"
)

// OwnTitlePrefix starts the titles of Yui's own windows.
const OwnTitlePrefix = "Yui — "

// OwnClass is the app (WM_CLASS, process image name) of Yui's windows.
const OwnClass = "yui"

// Window is one top-level window as a Windows provider reports it.
type Window struct {
	App    string
	Title  string
	Rect   image.Rectangle // absolute screen pixels
	PID    int             // 0 when unknown
	Type   string          // "", normal, dialog, utility, dock, desktop, …
	Hidden bool            // minimised or unmapped
	// ID is the OS's window id (an X window, a HWND); 0 when unknown.
	ID uint64
	// Frame is the window as the user sees it, title bar and borders
	// included (where the character sits); empty means Rect.
	Frame image.Rectangle
	// Fullscreen: the window covers its monitor as a fullscreen window.
	Fullscreen bool
}

// Windows lists the top-level windows, bottom to top when known.
type Windows interface {
	Windows() ([]Window, error)
}

// perchTargets is the answer to at "perch_targets".
type perchTargets struct {
	Windows []perchWindow `json:"windows"`
	Edges   []edge        `json:"edges"`
}

type perchWindow struct {
	App     string `json:"app"`
	Title   string `json:"title"`
	Rect    rect   `json:"rect"`
	Monitor int    `json:"monitor"`
}

type rect struct {
	X      int `json:"x"`
	Y      int `json:"y"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// edge is a monitor side the character can peek from (body_action peek).
type edge struct {
	Monitor int    `json:"monitor"`
	Label   string `json:"label"`
	Side    string `json:"side"` // left or right
	X       int    `json:"x"`    // the edge's column, absolute
	Top     int    `json:"top"`
	Bottom  int    `json:"bottom"`
}

// perchable reports whether the window is a visible application window.
func perchable(w Window, ownPIDs []int, ownPrefix string) bool {
	switch {
	case w.Hidden, w.Rect.Empty(), w.App == "" && w.Title == "":
		return false
	case w.PID != 0 && slices.Contains(ownPIDs, w.PID):
		return false
	case ownPrefix != "" && strings.HasPrefix(w.Title, ownPrefix):
		return false
	case strings.EqualFold(w.App, OwnClass):
		return false // any other window of Yui's processes (a popup, a tooltip)
	}
	switch w.Type {
	case "", "normal", "dialog", "utility":
		return true
	}
	return false
}

func perchText(ws []Window, ms []capture.Monitor, ownPIDs []int, ownPrefix string) (string, error) {
	out := perchTargets{Windows: []perchWindow{}, Edges: []edge{}}
	for _, w := range ws {
		if !perchable(w, ownPIDs, ownPrefix) {
			continue
		}
		mon := capture.Containing(ms, w.Rect)
		if len(ms) > 0 && mon < 0 {
			continue // wholly off screen
		}
		out.Windows = append(out.Windows, perchWindow{App: AppName(w), Title: w.Title, Monitor: max(mon, 0),
			Rect: rect{w.Rect.Min.X, w.Rect.Min.Y, w.Rect.Dx(), w.Rect.Dy()}})
	}
	for _, m := range ms {
		b := m.Bounds
		out.Edges = append(out.Edges,
			edge{Monitor: m.Index, Label: m.Label, Side: "left", X: b.Min.X, Top: b.Min.Y, Bottom: b.Max.Y},
			edge{Monitor: m.Index, Label: m.Label, Side: "right", X: b.Max.X - 1, Top: b.Min.Y, Bottom: b.Max.Y})
	}
	b, err := json.Marshal(out)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
