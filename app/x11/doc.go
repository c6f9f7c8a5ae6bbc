// Package x11 does the few window-manager-level things Wails v2 cannot:
// finding a process's own top-level window, marking it skip-taskbar and
// skip-pager, and setting its input shape so clicks on transparent pixels go
// to the windows below. It speaks the X11 protocol in pure Go (jezek/xgb),
// so it needs no cgo.
//
// Clients (clients.go) lists the top-level application windows for the
// look tool's perch targets: EWMH _NET_CLIENT_LIST(_STACKING) with each
// window's absolute client rectangle (GetGeometry + TranslateCoordinates),
// WM_CLASS, _NET_WM_NAME/WM_NAME, _NET_WM_PID, window type and hidden
// state; without an EWMH window manager, the root's mapped children.
//
// WatchPointerMotion (motion_linux.go) reports the pointer's motion
// anywhere on the display: XInput2 raw motion selected on the root over a
// small connection of its own, since xgb cannot read generic events.
//
// A Display is not safe for concurrent use; the window shell uses it from
// one goroutine.
package x11
