// Package core is Yui's core process: it owns the settings, the view
// server every window connects to, the characters (one per enabled
// preset: her session, voice, permission gate and view) and the window
// processes (kept running by a supervisor). It has no window of its own.
//
// The core wires rooms that each own one job behind a narrow host
// interface of their own (docs/architecture.md): petview (a character's
// page and transcript), settingsui (the settings window), desktop (hide,
// show, quit, autostart, the shortcut, placement), ear (the microphone),
// voices (the mutes), wardrobe (the VRM look's files, import and touches),
// life, gaze, companion, among, standings, archive, mindui and windows (the
// window processes). A room's host is built in the room from the narrow
// parts the core hands it (rooms.go); each room registers the view
// messages it owns in one route table; the core keeps the cast of
// characters (cast.go, pet.go) and the lifetime (run.go).
//
// Run blocks until its context ends, then closes every window and returns
// nil; that is how SIGINT and SIGTERM end the app with status 0.
package core
