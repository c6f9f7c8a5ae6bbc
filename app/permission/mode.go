package permission

// Mode is a preset's screen access setting.
type Mode string

// The modes of settings' Permissions.Screen.
const (
	ModeAsk   Mode = "ask"
	ModeAllow Mode = "allow"
	ModeDeny  Mode = "deny"
)

// ParseMode reads a settings value; anything but allow and deny is ask.
func ParseMode(s string) Mode {
	switch Mode(s) {
	case ModeAllow, ModeDeny:
		return Mode(s)
	}
	return ModeAsk
}
