package settingsui

import "slices"

// keptSites are the browser's always-allowed sites after a save: the form
// can forget sites, never add one (only a prompt's "Always for this site"
// adds). A form without the list (nil) keeps them all.
func keptSites(saved, form []string) []string {
	if form == nil {
		return saved
	}
	var out []string
	for _, s := range saved {
		if slices.Contains(form, s) {
			out = append(out, s)
		}
	}
	return out
}
