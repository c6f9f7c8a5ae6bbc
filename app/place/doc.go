// Package place is the window geometry of the desktop: where a pet window
// goes on first run, where a restored one is clamped to, how far a drag may
// take her off the screen, where a new character stands beside the others
// and where the settings window opens. It is pure arithmetic on rectangles
// in absolute root-window pixels (image.Rectangle), so it is tested without
// a display; the core feeds it the monitors it lists (capture.Source) and
// the window shell only applies the results.
//
// Monitors are given in the OS's order; the first is the primary one (on
// X11 the Xinerama list, which puts the RandR primary output first).
// Every function is pure and safe for concurrent use.
package place
