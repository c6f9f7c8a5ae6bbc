// Package desktop is the core's room for what the user does with the
// characters on the desktop: hide and show a character (her window
// process stops; her session stays), quit, start at login, the global
// shortcut, and where the windows go (placement, a drag kept on screen,
// Reset position). The tray and the pet menu both land here.
//
// A Room asks the core only what Host offers (the characters running, the
// spec of a pet window's process, the shared mute) and moves windows
// through Windows (the supervisor) and Pages (the view server); the saved
// settings come from Store.
package desktop
