// Package x11 does the few window-manager-level things Wails v2 cannot:
// finding a process's own top-level window, marking it skip-taskbar and
// skip-pager, and setting its input shape so clicks on transparent pixels go
// to the windows below. It speaks the X11 protocol in pure Go (jezek/xgb),
// so it needs no cgo.
//
// A Display is not safe for concurrent use; the window shell uses it from
// one goroutine.
package x11
