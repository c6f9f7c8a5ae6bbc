// Package autostart is Yui's "Start at login": the OS's own per-user
// record, which is the only place the choice is kept.
//
//   - Linux: an XDG autostart entry, $XDG_CONFIG_HOME/autostart/yui.desktop
//     (~/.config/autostart/yui.desktop), valid per desktop-file-validate.
//     An entry the user switched off in their desktop's settings
//     (Hidden=true or X-GNOME-Autostart-enabled=false) counts as off.
//   - Windows: the value "Yui" under HKCU\Software\Microsoft\Windows\
//     CurrentVersion\Run. One the user disabled in Task Manager (its
//     StartupApproved\Run entry) counts as off; switching on again clears
//     that mark.
//
// An Entry's methods may be called from any goroutine; two processes
// writing at once leave one of their entries (files are replaced
// atomically).
package autostart
