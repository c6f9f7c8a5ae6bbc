//go:build !windows

package browse

// openerCommand opens u with the desktop's handler (xdg-open).
func openerCommand(u string) (string, []string) { return "xdg-open", []string{u} }
