//go:build !windows && !darwin

package browse

// OpenerCommand opens u with the desktop's handler (xdg-open).
func OpenerCommand(u string) (string, []string) { return "xdg-open", []string{u} }
