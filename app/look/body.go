package look

import "encoding/json"

// BodyState is the answer to at "body".
type BodyState struct {
	// Position is the character window's top-left corner in absolute
	// screen pixels.
	Position Point `json:"position"`
	// Monitor is the monitor the character is on.
	Monitor int `json:"monitor"`
	// Posture is standing, sitting, peeking, dragging or walking.
	Posture string `json:"posture"`
	// PerchedOn is the window sat on; nil (null) when not perched.
	PerchedOn *Perch `json:"perched_on"`
	// Moving is true while the character walks or is dragged.
	Moving bool `json:"moving"`
}

// Point is a position in absolute screen pixels.
type Point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// Perch names the window the character sits on.
type Perch struct {
	App   string `json:"app"`
	Title string `json:"title,omitempty"`
}

// Body reports the character's state. Called on the push client's tool
// goroutine; it must be safe for that and return promptly.
type Body interface {
	BodyState() BodyState
}

// BodyFunc adapts a function to Body.
type BodyFunc func() BodyState

// BodyState calls f.
func (f BodyFunc) BodyState() BodyState { return f() }

func bodyText(b BodyState) (string, error) {
	if b.Posture == "" {
		b.Posture = "standing"
	}
	out, err := json.Marshal(b)
	if err != nil {
		return "", err
	}
	return string(out), nil
}
