package browse

// openerCommand opens u with the default browser (the URL protocol
// handler).
func openerCommand(u string) (string, []string) {
	return "rundll32", []string{"url.dll,FileProtocolHandler", u}
}
