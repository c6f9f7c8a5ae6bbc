package browse

// OpenerCommand opens u with the default browser (the URL protocol
// handler).
func OpenerCommand(u string) (string, []string) {
	return "rundll32", []string{"url.dll,FileProtocolHandler", u}
}
