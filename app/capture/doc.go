// Package capture lists the monitors and captures one of them.
//
// Monitor numbers are the Xinerama screen indexes the capture library
// (github.com/kbinani/screenshot) uses, 0 first; the same numbers are
// look.monitor, body_action.monitor and the client_context line
// `screenshot: monitor N (label)`. A monitor's Bounds are absolute
// root-window pixels; its Label is the RandR monitor name (e.g. DP-1) when
// the server has RandR 1.5, else "monitor N".
//
// No capture without permission: Source.Capture takes a *permission.Grant
// and uses it up before touching the screen; only a permission.Gate that
// granted a request mints one. A nil, zero or used grant is refused with
// permission.ErrNoGrant and nothing is captured.
//
// X11 (the real source) reads $DISPLAY, opens its own X connections per
// call and is safe for concurrent use. Fixed is an in-memory Source for
// tests, also safe for concurrent use. Pixels never reach a log.
package capture
