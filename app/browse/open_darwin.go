package browse

// OpenerCommand opens u with the desktop's handler (open).
func OpenerCommand(u string) (string, []string) { return "open", []string{u} }
