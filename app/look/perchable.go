package look

// Perchable reports whether w is one of the windows `look at:
// perch_targets` lists (a visible application window that is not one of
// Yui's own: its PID in ownPIDs, or its title starting with ownPrefix,
// OwnTitlePrefix when ""). The body_action runner sits only on these.
func Perchable(w Window, ownPIDs []int, ownPrefix string) bool {
	if ownPrefix == "" {
		ownPrefix = OwnTitlePrefix
	}
	return perchable(w, ownPIDs, ownPrefix)
}

// AppName is the name a window goes by in the perch targets: its app,
// else its title.
func AppName(w Window) string {
	if w.App != "" {
		return w.App
	}
	return w.Title
}
