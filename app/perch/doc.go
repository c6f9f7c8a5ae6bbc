// Package perch is the desktop's windows as places the character can sit
// on: the window list (look.Window, with ids and frames) and a watch on
// one window — where it moves, and whether it is minimised, closed, goes
// fullscreen or is restacked.
//
// Per OS: System is the X server's on Linux (app/x11: the EWMH client
// list and stacking, _NET_FRAME_EXTENTS, ConfigureNotify and property
// events on the perched window and its frame) and the desktop's on
// Windows (EnumWindows, DWM's extended frame bounds, a WinEvent hook for
// move, size, minimise, destroy and z-order changes). Both are event
// driven: a watch costs nothing while its window keeps still.
package perch
