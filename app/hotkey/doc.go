// Package hotkey is the global keyboard shortcut: a key combination
// ("Ctrl+Alt+Y") that reaches Yui from any app. Parse reads the
// settings' text form; a Grabber listens for the combination system-wide:
// on Linux an X11 passive key grab on the root window from the core
// process (pure Go, jezek/xgb; grab_linux.go), on Windows RegisterHotKey
// on a thread with its own message loop (grab_windows.go).
//
// A combination another app already holds fails with ErrTaken (the X
// server's BadAccess, Windows' ERROR_HOTKEY_ALREADY_REGISTERED), so the
// user can be told to choose another.
package hotkey
