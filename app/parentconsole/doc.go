// Package parentconsole gives a Windows GUI-subsystem program (yui.exe is
// linked -H windowsgui, so starting it opens no console window) the
// console of the terminal that started it, so `yui console`, `yui
// --version` and error messages print there. Standard handles the parent
// already set (a pipe, a file) are kept. On Linux Attach does nothing.
//
// Windows limitation: cmd.exe does not wait for a GUI-subsystem program,
// so its prompt comes back at once and output interleaves with it; use
// `start /wait yui console ...` there (PowerShell waits when the output is
// piped, e.g. `yui console ... | Out-Host`).
package parentconsole
