// Package body is the one source of truth of where a character's body is
// and what it does: posture, position, monitor, the window she is perched
// on, whether she moves, and since when her posture is what it is.
//
// The action runner (app/core/life) and the pet window's reports (a drag,
// a drop) write it; the client_context body line (Context), `look at:
// body` (Look) and the pet page's pose all read it. A Body is safe for
// concurrent use; its OnChange hook runs after every change, outside the
// lock, in the order of the changes made from one goroutine.
package body
