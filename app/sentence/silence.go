package sentence

import "strings"

// SilentToken is the bare token a backend sends for a deliberate silence.
const SilentToken = "[SILENT]"

// IsSilent reports whether speech is empty or trims to exactly [SILENT].
func IsSilent(speech string) bool {
	s := strings.TrimSpace(speech)
	return s == "" || s == SilentToken
}
