package proactive

import "time"

// Input is what the OS says about the user's keyboard and mouse.
type Input interface {
	// Idle is how long since the user's last input in any app; ok is
	// false when the OS does not tell.
	Idle() (d time.Duration, ok bool)
	// Typing reports input within the last few seconds (a burst of keys
	// in any app, as far as the OS tells).
	Typing() bool
}

// Locker is an Input that also tells whether the screen is locked (or the
// screen saver shows): a locked screen is away, and unlocking it is coming
// back, however short the lock.
type Locker interface {
	Locked() bool
}

// Screen is what the desktop says about the frontmost window.
type Screen interface {
	// Frontmost is the app and title the user is in and since when; ok
	// false when unknown.
	Frontmost() (app, title string, since time.Time, ok bool)
	// Fullscreen reports whether the frontmost window fills its monitor
	// (a film, a game, a presentation).
	Fullscreen() bool
}

// Cast is the characters' state.
type Cast interface {
	// Speaking reports whether any character is speaking.
	Speaking() bool
	// TurnRunning reports whether any character has a turn running.
	TurnRunning() bool
	// Target is the character a proactive turn goes to now (the main
	// character unless she is quiet, else the next one who is not); ok
	// false when every character is quiet.
	Target() (t Target, ok bool)
}

// Target is the character who would speak and what holds her back.
type Target struct {
	ID     string
	Hidden bool // her window is hidden
	Muted  bool // her voice is muted (alone or all voices)
	// Offline: her connection to her backend is not ready (a turn would
	// only fail).
	Offline bool
	// TellsApp: the user allowed telling her agent which app they are in
	// (the app notes need it).
	TellsApp bool
}

// Sources are everything the engine reads. A nil Input is unknown input
// (never typing, always present); a nil Screen is no frontmost window.
type Sources struct {
	Input  Input
	Screen Screen
	Cast   Cast
}
