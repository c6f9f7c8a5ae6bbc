// Package ear is the core's room for the one microphone every character
// shares: it runs the listener (app/listen) with the saved Listening
// settings, sends what it hears as a spoken turn of the character the
// settings (or her pet menu) name, stops the characters heard when the
// user talks over them, and shows its state in every pet's pill and the
// settings window's Listening section.
//
// The room asks the core only for the characters (Host); it reads and
// saves the settings through Store and talks to the pages through Pages.
package ear
