package shell

func openerCommand(u string) (string, []string) { return "open", []string{u} }
