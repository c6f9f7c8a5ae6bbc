// Package tray is Yui's notification-area icon and menu, in the core
// process (it has no window and stays cgo-free): fyne.io/systray, which
// speaks D-Bus StatusNotifierItem + com.canonical.dbusmenu on Linux and
// Shell_NotifyIcon on Windows.
//
// The menu: one check item per character (checked while shown; clicking
// hides or shows her), Mute all voices (check), Quiet companion (check), Settings…, Start at login
// (check, when the OS can record it), Quit Yui. Update changes it; it is
// rebuilt only when the list of characters changes, otherwise items are
// re-labelled and re-checked in place.
//
// Linux: the icon and title are set before the item is exported, so a
// host never sees an item without its icon (the lost-icon race). Without
// a session bus at all Start returns ErrNoSessionBus (the library would
// crash on quit); with a bus but no tray host (no StatusNotifierWatcher)
// the item is exported anyway and registers itself when a host appears.
//
// Windows: the library's window and message loop run on a goroutine
// locked to its own OS thread; the icon is set once that window exists.
// The OS session ending (WM_ENDSESSION) calls Options.SessionEnd, which
// must return only when Yui has saved everything.
//
// The library keeps process-wide state, so a process has at most one
// tray: Start may be called once. Tray's methods may be called from any
// goroutine; the Actions run on the tray's goroutines, one click at a
// time per item.
package tray
