package view

// Where the windows are, and the keyboard's way in (docs/desktop.md,
// "Where she is", and docs/view-protocol.md).
const (
	// TypeWindowMove moves a pet window: core → shell, WindowPosition in
	// absolute screen pixels. The core sends it when a drag left less than
	// a third of her on the monitors, and for Reset position.
	TypeWindowMove = "window_move"
	// TypeOpenComposer opens the pet page's composer and focuses it
	// (the global shortcut): core → pet page, no fields, not sticky.
	TypeOpenComposer = "open_composer"
)

// DesktopResetPosition is the desktop_action that puts the sending pet's
// character back at the bottom-right of the primary monitor.
const DesktopResetPosition = "reset_position"

// TypeLookArt is a pet page's look folder art: core → pet page, LookArt,
// sticky (docs/looks.md).
const TypeLookArt = "look_art"

// LookArt is the art of a look folder: each emotion's sanitised SVG as a
// data: URL. Emotions is empty for a built-in look (the page draws it).
type LookArt struct {
	Look     string            `json:"look"`
	Emotions map[string]string `json:"emotions"`
	// Poses are the poses a look folder draws itself (lookfolder.Poses:
	// sit, peek, sleep, walk-1, walk-2), each a data: URL; the page draws
	// the others with the built-in poses.
	Poses map[string]string `json:"poses,omitempty"`
	// VRM is set for a VRM look folder (then Emotions is empty).
	VRM *VRMLook `json:"vrm,omitempty"`
}
