//go:build !windows

package parentconsole

// Attach does nothing: the process already has its terminal.
func Attach() {}
