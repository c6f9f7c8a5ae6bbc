// Package presence is what the OS says about the user at the computer: how
// long since their last input in any app, whether they are typing (input
// within TypingWindow), whether the frontmost window is fullscreen, and
// whether the screen is locked (the screen saver shows).
// The proactive engine reads it (app/proactive's Input and the fullscreen
// half of its Screen).
//
// Linux reads the X server (app/x11: MIT-SCREEN-SAVER's idle time and the
// active window's _NET_WM_STATE); Windows reads GetLastInputInfo and
// compares the foreground window with its monitor. Elsewhere, and when
// the display cannot be read, input is unknown (Idle's ok is false).
package presence
