package autostart

// Entry starts one program at login: Exe with Args.
type Entry struct {
	exe  string
	args []string
	// where is the desktop file (Linux) or the registry value's name
	// (Windows).
	where string
}

// Where is the entry's location: the desktop file's path on Linux, the
// registry value on Windows.
func (e *Entry) Where() string { return e.where }
