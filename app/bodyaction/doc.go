// Package bodyaction is the client tool `body_action` (client-notes §5):
// the character moves her body on the desktop, as a transport.Tool that
// main declares on every wire.
//
// Arguments: {action, app?, side?, spot?, monitor?} with action one of
// sit_on_window (needs app), peek (needs side: left|right), move_to
// (needs spot: center|top-left|top-right|bottom-left|bottom-right,
// optional monitor), stand, go_to_bed. Argument errors are answered at
// once from Validate: "error: missing field <name>" for an absent field
// the action needs, "error: invalid field <name>" for a value the schema
// does not take (a wrong type, an empty app, a negative monitor, a field
// the schema does not have). A field another action uses is checked for
// its type and otherwise ignored.
//
// Run hands the action to an Actor (the core's desktop life room) and
// answers what it says: "ok" when she got there, or "error: not_found",
// "blocked", "interrupted", "busy", "unsupported". Without an Actor (no
// desktop: `yui console`, a Wayland session without X11) every call is
// "error: unsupported". The client's wait is the limits table's body
// action wait, 15 s; the Actor must stop the action when ctx ends.
package bodyaction
