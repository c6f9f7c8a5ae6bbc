package shell

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"unicode"

	"yui/app/view"
)

// The window's own pages are served by Wails at wails://wails/ (Linux).
// Everything here is the Go side of the window's guard (guard_cgo.go):
// the WebKit view asks it before every navigation and before every message
// a page sends to the Wails runtime.

// guard decides what the window's web view may do. Its methods are called
// on the GTK main thread and must not block.
type guard struct {
	log    *slog.Logger
	origin string // the app's own pages, view.WindowOrigin
	// unguarded runs when the guard could not be put in place (no web
	// view found, or Wails' message handler not found): the window must
	// not run without it.
	unguarded func()
}

func newGuard(lg *slog.Logger, unguarded func()) *guard {
	return &guard{log: lg, origin: view.WindowOrigin, unguarded: unguarded}
}

// installed is told what the guard covers once it is in place: views web
// views found, gated of them with their page messages gated. Anything less
// than all of it is fatal (fail closed).
func (g *guard) installed(views, gated int) {
	if views == 0 || gated < views {
		g.log.Error("window_guard_missing", "views", views, "messages_gated", gated)
		if g.unguarded != nil {
			g.unguarded()
		}
		return
	}
	g.log.Info("window_guard", "views", views, "messages_gated", gated)
}

// ownPage reports whether uri is one of the app's own pages.
func (g *guard) ownPage(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || u.Opaque != "" {
		return false
	}
	return strings.EqualFold(u.Scheme+"://"+u.Host, g.origin)
}

// navigation decides a navigation of the main frame or a subframe to uri
// (newWindow: a request for a new window). Only the app's own pages load;
// a new window never opens. A refusal is logged.
func (g *guard) navigation(uri string, newWindow bool) bool {
	if !newWindow && g.ownPage(uri) {
		return true
	}
	g.log.Warn("window_navigation_refused", "url", logURL(uri), "new_window", newWindow)
	return false
}

// message decides whether a message from the page in the view (whose
// current URI is page) reaches the Wails runtime and the bound Bridge: only
// from the app's own pages, and never the runtime's BrowserOpenURL ("BO:"),
// which would hand any URL to the OS unchecked (pages use Bridge.OpenURL).
func (g *guard) message(page, msg string) bool {
	switch {
	case !g.ownPage(page):
		g.log.Warn("window_message_refused", "reason", "not the app's page", "page", logURL(page))
		return false
	case strings.HasPrefix(msg, "BO:"):
		g.log.Warn("window_message_refused", "reason", "runtime BrowserOpenURL (use Bridge.OpenURL)", "url", logURL(msg[3:]))
		return false
	}
	return true
}

// ErrNotWebURL is OpenURL's refusal of anything but an http(s) URL.
var ErrNotWebURL = errors.New("only http and https links open")

// checkOpenURL returns raw as the URL to hand to the OS if it is an
// absolute http or https URL with a host, and nothing that a desktop
// opener could read as an option or a second argument.
func checkOpenURL(raw string) (string, error) {
	if raw == "" || len(raw) > 8192 {
		return "", fmt.Errorf("shell: open %q: %w", logURL(raw), ErrNotWebURL)
	}
	for _, r := range raw {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			return "", fmt.Errorf("shell: open %q: %w", logURL(raw), ErrNotWebURL)
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("shell: open %q: %w", logURL(raw), ErrNotWebURL)
	}
	s := strings.ToLower(u.Scheme)
	if (s != "http" && s != "https") || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("shell: open %q: %w", logURL(raw), ErrNotWebURL)
	}
	return u.String(), nil
}

// logURL is how a URL from a page appears in a log line: scheme, host and
// path only (no user info, query or fragment), cut to 200 characters.
func logURL(raw string) string {
	u, err := url.Parse(raw)
	s := raw
	if err == nil {
		if u.Opaque != "" {
			s = u.Scheme + ":" + u.Opaque
		} else {
			u.User, u.RawQuery, u.Fragment, u.RawFragment = nil, "", "", ""
			s = u.String()
		}
	} else if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
