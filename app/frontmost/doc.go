// Package frontmost knows which application window the user is in, for the
// client_context block's frontmost line (client-notes §3): the app, its
// window title, and since when it has been frontmost.
//
// A Tracker follows the window manager's active window as it changes
// (X11 _NET_ACTIVE_WINDOW property events: no polling, nothing runs while
// the user stays in one window). Yui's own windows (WM_CLASS Yui) never
// count: clicking
// the character to type keeps the app the user came from as frontmost.
// The title is read fresh when the line is built, so a browser tab that
// changed shows its current title; the time counts from when the window
// (not its title) became frontmost.
//
// Without an EWMH window manager, or without an X display, Current reports
// nothing and the line is left out.
package frontmost
