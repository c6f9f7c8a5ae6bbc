package permission

import "fmt"

// Prompt is what the pet window shows when the gate asks the user.
type Prompt struct {
	ID      uint64 // answer with Gate.Answer(ID, …)
	Preset  string // the preset's id
	Backend string // the preset's backend name or URL, as Config.Backend
	Monitor int    // the monitor asked for
	Label   string // the monitor's label, when Config.Label knows it
	// Tool, when set, names the tool a prompt that is not the screen's
	// asks for (an MCP tool's first call, app/mcp: "read of the MCP
	// server files"); Ask is then its whole question and Monitor is 0.
	Tool, Ask string
}

// Text is a one-line English wording of the prompt.
func (p Prompt) Text() string {
	if p.Ask != "" {
		return p.Ask
	}
	where := fmt.Sprintf("monitor %d", p.Monitor)
	if p.Label != "" {
		where += " (" + p.Label + ")"
	}
	return fmt.Sprintf("%s asks to see your screen, %s: allow once, always for this character, or deny?", p.Backend, where)
}

// Choice is the user's answer to a prompt.
type Choice int

// The three buttons of the prompt.
const (
	Once   Choice = iota + 1 // Allow once
	Always                   // Always for this character
	Deny                     // Deny
)

// ParseChoice reads "once", "always" or "deny".
func ParseChoice(s string) (Choice, bool) {
	switch s {
	case "once":
		return Once, true
	case "always":
		return Always, true
	case "deny":
		return Deny, true
	}
	return 0, false
}

func (c Choice) String() string {
	switch c {
	case Once:
		return "once"
	case Always:
		return "always"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("choice(%d)", int(c))
}
