// Package settingsui is the settings window's controller: it keeps the
// window's process (started on first use, hidden when closed, ended after
// SettingsIdleExit hidden), publishes what the form shows (the saved
// settings without keys, the choices, each character's connection and
// delegation history, the sound devices), and takes the form's save
// (merged into the saved settings, validated, refused naming the field),
// Test connection and its looks.
//
// A save is applied through Host.Save, which runs the change and brings
// the running characters in line under the core's lock; the rest of what
// the room asks of the core is in Host.
package settingsui
