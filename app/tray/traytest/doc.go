// Package traytest runs a private D-Bus session bus and a small
// StatusNotifierWatcher stand-in on it, and reads a registered tray item
// the way a tray host does: its properties and icon over
// org.kde.StatusNotifierItem, its menu over com.canonical.dbusmenu, and
// clicks through dbusmenu's Event. Tests of the tray and end-to-end tests
// of the app use it; it needs dbus-daemon (package dbus-daemon).
//
// The stand-in is the watcher only: it records registrations, answers
// IsStatusNotifierHostRegistered true and emits
// StatusNotifierItemRegistered; it draws nothing. A Watcher's methods may
// be called from any goroutine.
package traytest
