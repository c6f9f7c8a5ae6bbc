package settings

import (
	"fmt"
	"regexp"
)

// Talk is how characters talk among themselves: the manners of
// address_character (docs/decisions.md, "Among friends"). A chain of
// characters addressing each other without the user ends after MaxHops
// hops, and no more than PerMinute are started in any minute; zero is the
// default.
type Talk struct {
	MaxHops   int `json:"max_hops,omitempty"`
	PerMinute int `json:"per_minute,omitempty"`
}

// The defaults and bounds of Talk.
const (
	DefaultTalkHops      = 6
	DefaultTalkPerMinute = 6
	MaxTalkHops          = 20
	MaxTalkPerMinute     = 30
)

// Hops is the chain's cap in force.
func (t Talk) Hops() int {
	if t.MaxHops == 0 {
		return DefaultTalkHops
	}
	return t.MaxHops
}

// Rate is the per-minute cap in force.
func (t Talk) Rate() int {
	if t.PerMinute == 0 {
		return DefaultTalkPerMinute
	}
	return t.PerMinute
}

// MaxBrowserSites bounds the sites a character keeps allowed to open.
const MaxBrowserSites = 200

// sitePattern is a host name or address as browse.Site makes it (lower
// case, no port).
var sitePattern = regexp.MustCompile(`^[a-z0-9._:\[\]-]{1,253}$`)

// validateTalk refuses a cap out of its range.
func validateTalk(t Talk) error {
	switch {
	case t.MaxHops < 0 || t.MaxHops > MaxTalkHops:
		return &FieldError{Field: "talk.max_hops", Reason: fmt.Sprintf("must be 1 to %d (0 is the default, %d)", MaxTalkHops, DefaultTalkHops)}
	case t.PerMinute < 0 || t.PerMinute > MaxTalkPerMinute:
		return &FieldError{Field: "talk.per_minute", Reason: fmt.Sprintf("must be 1 to %d (0 is the default, %d)", MaxTalkPerMinute, DefaultTalkPerMinute)}
	}
	return nil
}

// validateBrowser refuses a site list the browser tool could not have
// written (the field is relative to the preset).
func validateBrowser(p Permissions) error {
	if len(p.BrowserSites) > MaxBrowserSites {
		return &FieldError{Field: "permissions.browser_sites", Reason: fmt.Sprintf("more than %d sites", MaxBrowserSites)}
	}
	for _, s := range p.BrowserSites {
		if !sitePattern.MatchString(s) {
			return &FieldError{Field: "permissions.browser_sites", Reason: fmt.Sprintf("%q is not a site's host name", s)}
		}
	}
	return nil
}
