package view

// Her body on the desktop (docs/desktop-life.md): the pose the pet page
// draws, the drag the page reports, and the bed from her menu.
const (
	// TypeBody is her body's pose: core → pet page, Body, sticky.
	TypeBody = "body"
	// TypeBodyDrag is a drag of her window starting or ending: pet page →
	// core, BodyDrag.
	TypeBodyDrag = "body_drag"
	// TypeBodyMenu is her menu's Go to bed / Wake up, and a click that
	// wakes her: pet page → core, BodyMenu.
	TypeBodyMenu = "body_menu"
	// TypeWindowStep moves a pet window at once, one step of a walk or of
	// following the window she sits on: core → shell, WindowPosition. The
	// shell does not report a step back (a walk's last step is a
	// window_move, which it does, and the place is saved then).
	TypeWindowStep = "window_step"
)

// Body is what the pet page draws of her body.
type Body struct {
	// Posture is standing, sitting, peeking, walking, dragging or
	// sleeping.
	Posture string `json:"posture"`
	// Side is the edge she peeks from (left or right), "" otherwise.
	Side string `json:"side"`
	// Facing is the way she walks (left or right), "" when still.
	Facing string `json:"facing"`
	// Perched is true while she is on a window.
	Perched bool `json:"perched"`
}

// BodyDrag is a drag of her window.
type BodyDrag struct {
	// Phase is start or end.
	Phase string `json:"phase"`
	// X and Y are her window's top-left corner where the drag ended
	// (absolute screen pixels); unused at start.
	X int `json:"x"`
	Y int `json:"y"`
}

// The BodyDrag phases.
const (
	DragStart = "start"
	DragEnd   = "end"
)

// BodyMenu is one of the BodyMenu* actions.
type BodyMenu struct {
	Action string `json:"action"`
}

// The BodyMenu actions.
const (
	BodyMenuSleep = "go_to_bed"
	BodyMenuWake  = "wake"
)
