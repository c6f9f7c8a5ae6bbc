// Package look is the client tool `look` (client-notes §5): the
// character's eyes, as a transport.Tool declared by main's pet window.
//
//   - at "body": a JSON text {position, monitor, posture, perched_on,
//     moving} from the Body provider.
//   - at "perch_targets": a JSON text {windows, edges}: the visible
//     top-level windows (app, title, rect, monitor) the character can sit
//     on — hidden windows, docks/desktops/menus and Yui's own windows (by
//     PID, a title starting "Yui — ", or the app "yui") left out — plus the left and right
//     edge of every monitor it can peek from.
//   - at "screen": the requested monitor (default: the character's) after
//     the permission gate; "ok" with a PNG data URL in tool_result.images,
//     which the push client fits into its frame with the JPEG fitter
//     (jpegfit.URLFitter), answering "error: result too large" when nothing
//     fits. Without permission: "error: permission pending: asked the user"
//     (the gate has opened a prompt) or "error: permission denied".
//
// Argument errors are answered at once by the push client from Validate:
// "error: missing field at", "error: invalid field at", "error: invalid
// field monitor" (not a non-negative integer; a monitor that does not
// exist is found at run time and answered the same), "error: invalid field
// <name>" for an argument the schema does not have. The client's wait is
// the limits table's query wait, 2 s.
//
// Concurrency: a Tool is safe for concurrent use (the push client runs
// one call at a time anyway); it keeps no state between calls. Its
// providers must be safe to call from the push client's tool goroutine.
// X11Windows opens its own X connection per call.
package look
