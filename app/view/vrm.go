package view

// The VRM look's messages (docs/looks.md, docs/view-protocol.md).
const (
	// TypePointer is where the pointer is while it is near the character:
	// core → pet page, Pointer, not sticky.
	TypePointer = "pointer"
	// TypeTouch is a pat or poke on the character: pet page → core, Touch.
	TypeTouch = "touch"
	// TypeLookFailed says the page could not show its VRM look and shows
	// the built-in one: pet page → core, LookFailed.
	TypeLookFailed = "look_failed"
	// TypeLookThumbnail is a VRM look's thumbnail the settings page
	// rendered: settings page → core, LookThumbnail.
	TypeLookThumbnail = "look_thumbnail"
	// TypeLookOptions changes a VRM look folder's options: settings page →
	// core, LookOptions.
	TypeLookOptions = "look_options"
)

// VRMLook is what a pet page needs to draw a VRM look: the URL paths of the
// model and its clips on the view server (the page adds its token), the
// resolved emotion mapping, the motion ids its clips play and the look's
// options.
type VRMLook struct {
	// Model is the model's path, e.g. /look/model.vrm?look=ocean&rev=….
	Model string `json:"model"`
	// Emotions maps each emotion the look shows to expression weights.
	Emotions map[string]map[string]float64 `json:"emotions"`
	// Motions maps motion ids to clip names.
	Motions map[string]string `json:"motions"`
	// Clips maps clip names to their paths on the view server.
	Clips map[string]string `json:"clips"`
	// Breathing is "low" (a few frames a second while idle) or "off".
	Breathing string `json:"breathing"`
}

// Pointer is the pointer's position in the pet window's own pixels (it
// may lie outside the window) while it is within reach of her; Near false
// says it went away (the page stops following it).
type Pointer struct {
	X    int  `json:"x"`
	Y    int  `json:"y"`
	Near bool `json:"near"`
}

// Touch is a pat ("pat") or a poke ("poke") on her "head" or "body".
type Touch struct {
	Kind  string `json:"kind"`
	Where string `json:"where"`
}

// LookFailed names the look the page could not show and why.
type LookFailed struct {
	Look   string `json:"look"`
	Reason string `json:"reason"`
}

// LookThumbnail is a PNG (a data: URL) of the look's model.
type LookThumbnail struct {
	Look string `json:"look"`
	PNG  string `json:"png"`
}

// LookOptions are a character's options for a VRM look (settings page →
// core, applied and saved at once): Preset's breathing ("low", "off" or ""
// for the look's own) and whether a touch starts a turn (trigger: touch
// <where>; "on", "off" or "" for the look's own). Without Preset they are
// the look folder Look's own defaults (its look.json: breathing "low" or
// "off", touch turns "on" or "off").
type LookOptions struct {
	Preset     string `json:"preset,omitempty"`
	Look       string `json:"look,omitempty"`
	Breathing  string `json:"breathing"`
	TouchTurns string `json:"touch_turns"`
}

// CharacterLookOptions are a character's VRM look options as the settings
// form shows them ("" is the look's own default).
type CharacterLookOptions struct {
	Breathing  string `json:"breathing"`
	TouchTurns string `json:"touch_turns"`
}

// VRMLookChoice is a VRM look as the settings page lists it: its
// thumbnail (a PNG data: URL, "" until one is rendered), the model's VRM
// version and its options.
type VRMLookChoice struct {
	ID         string `json:"id"`
	Thumb      string `json:"thumb"`
	Version    string `json:"version"`
	Breathing  string `json:"breathing"`
	TouchTurns bool   `json:"touch_turns"`
}
