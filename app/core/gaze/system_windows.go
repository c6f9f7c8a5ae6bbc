package gaze

// System is nil on Windows: the pointer outside her window is not
// reported there yet (it needs a low-level mouse hook; docs/windows.md).
func System() Source { return nil }
