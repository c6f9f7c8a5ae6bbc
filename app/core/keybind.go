package core

import (
	"fmt"
	"net"
	"net/url"
	"strings"

	"yui/app/settings"
	"yui/app/view"
)

// A key is bound to the backend it was entered for (docs/security.md,
// "Keys and backends"): a save from the settings window that points a
// preset at another origin drops the saved key — unless the same save
// carries a new one — and takes back the standing screen permissions
// ("Allow" goes back to "Ask", the screenshot with each message goes off).
// The settings window says why, next to the fields (PresetForm.KeyNote and
// ScreenNote). The session of a preset is bound to the origin it was made
// for: it is given the key only while the preset's URL still has that
// origin.

// backendOrigin is u's origin: scheme, host and port, lower case, the
// default port of the scheme left out; "" for no URL. ws and wss count as
// http and https (the push transport derives its socket URL that way, so
// they name the same server). An unreadable URL is its own origin (it
// never equals another's).
func backendOrigin(u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "invalid:" + u
	}
	scheme := strings.ToLower(p.Scheme)
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	}
	host := strings.ToLower(p.Hostname())
	port := p.Port()
	switch {
	case port == "80" && scheme == "http", port == "443" && scheme == "https":
		port = ""
	}
	if port != "" {
		host = net.JoinHostPort(host, port)
	} else if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	return scheme + "://" + host
}

// backendChange is what a save did to one preset because its backend
// moved to another origin.
type backendChange struct {
	To          string // the new origin
	KeyDropped  bool
	ScreenReset bool
}

// bindToBackend applies the rule to p, a preset the save changes from old
// (keyTyped: the save carries a key for it). It returns what it changed,
// or nil when the origin stayed.
func bindToBackend(old settings.Preset, p *settings.Preset, keyTyped bool) *backendChange {
	to := backendOrigin(p.ChatBaseURL)
	if backendOrigin(old.ChatBaseURL) == to {
		return nil
	}
	ch := &backendChange{To: to}
	if !keyTyped && p.Key != "" {
		p.Key = ""
		ch.KeyDropped = true
	}
	if p.ThreadID != "" && p.ThreadID == old.ThreadID {
		// A thread lives on the runtime it was made on.
		p.ThreadID = ""
	}
	if p.Permissions.Screen == "allow" {
		p.Permissions.Screen = "ask"
		ch.ScreenReset = true
	}
	if p.Permissions.ScreenshotEachTurn {
		p.Permissions.ScreenshotEachTurn = false
		ch.ScreenReset = true
	}
	return ch
}

// backendNote is what the settings window shows about a preset's last
// backend change, until it no longer applies.
type backendNote struct {
	origin string // the backend the note is about
	key    bool   // the key was dropped and none was typed since
	screen bool   // screen permissions were taken back by the last save
}

// notesAfterSave computes the notes after an accepted save: this save's
// changes, and earlier key notes of presets that still have no key on the
// same backend. Screen notes last one save.
func notesAfterSave(prev map[string]backendNote, changes map[string]*backendChange, after settings.Settings) map[string]backendNote {
	out := map[string]backendNote{}
	for _, p := range after.Presets {
		if ch := changes[p.ID]; ch != nil {
			if ch.KeyDropped || ch.ScreenReset {
				out[p.ID] = backendNote{origin: ch.To, key: ch.KeyDropped, screen: ch.ScreenReset}
			}
			continue
		}
		if n, ok := prev[p.ID]; ok && n.key && p.Key == "" && backendOrigin(p.ChatBaseURL) == n.origin {
			out[p.ID] = backendNote{origin: n.origin, key: true}
		}
	}
	return out
}

// apply puts the note's words in the form.
func (n backendNote) apply(f *view.PresetForm) {
	where := n.origin
	if where == "" {
		where = "no backend"
	}
	if n.key {
		f.KeyNote = fmt.Sprintf("The saved key was removed because the base URL now points to another server (%s). A key goes only to the server it was entered for: type the key for this one.", where)
	}
	if n.screen {
		f.ScreenNote = fmt.Sprintf("Screen access went back to “Ask each time” and the screenshot with each message was turned off, because the backend changed (%s). Choose again for this backend.", where)
	}
}
