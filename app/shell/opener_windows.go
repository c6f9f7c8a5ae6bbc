package shell

// openerCommand opens u with the default browser (the URL protocol
// handler; checkOpenURL allowed only http and https).
func openerCommand(u string) (string, []string) {
	return "rundll32", []string{"url.dll,FileProtocolHandler", u}
}
