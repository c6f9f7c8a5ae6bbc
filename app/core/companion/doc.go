// Package companion is the core's room for proactive turns: it runs the
// app/proactive engine on the OS's sources and the cast's state (who is
// speaking, whose turn runs, who is hidden, muted or quiet), follows the
// sessions' events (a user turn starts a new gap; a turn's end starts the
// quiet gap), starts the turn the engine decides on through its Host, and
// owns the quiet companion switch (global and per character, saved in the
// settings) that the tray, the pet menu and the settings window reach.
package companion
