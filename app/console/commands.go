package console

import "strings"

// command is one parsed stdin line.
type command struct {
	name string // "" for a typed turn; else stop, reset, reconnect, barge, spoken, attach, allow, stats, quit
	arg  string
}

// parseLine reads a stdin line. A line starting with "/" names a command;
// "//text" sends "/text" as a typed turn; an unknown command is reported.
func parseLine(line string) (command, bool) {
	line = strings.TrimRight(line, "\r\n")
	if !strings.HasPrefix(line, "/") {
		return command{arg: line}, true
	}
	if strings.HasPrefix(line, "//") {
		return command{arg: line[1:]}, true
	}
	name, arg, _ := strings.Cut(line[1:], " ")
	switch name {
	case "stop", "reset", "reconnect", "barge", "quit", "spoken", "attach", "allow", "stats":
		return command{name: name, arg: strings.TrimSpace(arg)}, true
	}
	return command{name: name}, false
}
