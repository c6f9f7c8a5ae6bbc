package backend

import (
	"net"
	"net/url"
	"strings"

	"yui/app/settings"
)

// A key is bound to the backend it was entered for: a save from the
// settings window that points a preset at another origin drops the saved
// key — unless the same save carries a new one — and takes back the
// standing screen permissions ("Allow" goes back to "Ask", the screenshot
// with each message goes off). The settings window says why, next to the
// fields (PresetForm.KeyNote and ScreenNote). The session of a preset is
// bound to the origin it was made for: it is given the key only while the
// preset's URL still has that origin.

// Origin is u's origin: scheme, host and port, lower case, the default
// port of the scheme left out; "" for no URL. ws and wss count as http and
// https (the push transport derives its socket URL that way, so they name
// the same server). An unreadable URL is its own origin (it never equals
// another's).
func Origin(u string) string {
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

// Change is what a save did to one preset because its backend moved to
// another origin.
type Change struct {
	To          string // the new origin
	KeyDropped  bool
	ScreenReset bool
}

// Bind applies the rule to p, a preset the save changes from old
// (keyTyped: the save carries a key for it). It returns what it changed,
// or nil when the origin stayed.
func Bind(old settings.Preset, p *settings.Preset, keyTyped bool) *Change {
	to := Origin(p.ChatBaseURL)
	if Origin(old.ChatBaseURL) == to {
		return nil
	}
	ch := &Change{To: to}
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
	// The sites allowed always were allowed for the backend that asked.
	p.Permissions.BrowserSites = nil
	return ch
}

// Name is how a permission prompt names the preset's backend.
func Name(p settings.Preset) string {
	if p.ChatBaseURL == settings.DemoBaseURL {
		return "The demo backend"
	}
	if p.ChatBaseURL == "" {
		return p.Name + "'s backend"
	}
	return p.ChatBaseURL
}

var labels = map[string]string{
	"push":             "Push (WebSocket)",
	"responses":        "OpenAI Responses",
	"chat_completions": "OpenAI Chat Completions",
	"standard_agents":  "Standard Agents threads",
}

// Label is how the windows name a chat_api value.
func Label(chatAPI string) string {
	if l := labels[chatAPI]; l != "" {
		return l
	}
	return chatAPI
}
