package browse

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"time"

	"yui/app/permission"
	"yui/transport"
)

// Name is the tool's name in hello.tools and tools[].
const Name = "browser"

// The values of the action argument.
const (
	ActionOpen = "open"
	ActionRead = "read"
)

// Description and Parameters are the tool's schema (client-notes §5).
const (
	Description = "Open a web page in the user's browser (open; the user is asked the first time for a site), or read a page's text (read)"
	Parameters  = `{"type":"object","properties":{` +
		`"action":{"type":"string","enum":["open","read"]},` +
		`"url":{"type":"string","description":"An http or https URL"}},` +
		`"required":["action","url"],"additionalProperties":false}`
)

// The tool's answers other than a page's text.
const (
	ResultBlocked = "error: blocked"
	ResultPending = "error: permission pending: asked the user"
	ResultDenied  = "error: permission denied"
	ResultTooBig  = "error: page too large"
)

// Sites is the permission to open a site (permission.SiteGate).
type Sites interface {
	Request(site string) error
}

// Config are the tool's parts.
type Config struct {
	// Fetcher reads pages; nil is NewFetcher(FetchConfig{}).
	Fetcher *Fetcher
	// Open shows a URL in the user's default browser; nil is OpenURL.
	Open func(u string) error
	// Sites decides which sites may be opened; nil allows none.
	Sites Sites
	// Pill shows the call's running and done/failed state on the status
	// pill (the client runs this tool itself: spec rule 6); nil shows
	// nothing.
	Pill func(turnID, state string)
	// Logger receives browser lines (the host and the outcome, never the
	// page); nil discards.
	Logger *slog.Logger
}

// Tool is one character's browser tool.
type Tool struct {
	cfg Config
	log *slog.Logger
}

var _ transport.Tool = (*Tool)(nil)

// New returns the tool.
func New(cfg Config) *Tool {
	if cfg.Fetcher == nil {
		cfg.Fetcher = NewFetcher(FetchConfig{})
	}
	if cfg.Open == nil {
		cfg.Open = OpenURL
	}
	t := &Tool{cfg: cfg, log: cfg.Logger}
	if t.log == nil {
		t.log = slog.New(slog.DiscardHandler)
	}
	return t
}

// Schema is the declaration.
func (t *Tool) Schema() transport.FunctionSchema {
	return transport.FunctionSchema{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters)}
}

// Wait is the limits table's browser wait (32 s).
func (t *Tool) Wait() time.Duration { return transport.ClientToolWait(Name) }

// Validate answers a bad call at once.
func (t *Tool) Validate(raw json.RawMessage) error {
	_, _, err := parseArgs(raw)
	return err
}

// Run opens or reads the page, showing its state on the pill.
func (t *Tool) Run(ctx context.Context, call transport.ToolCall) (string, []string, error) {
	action, u, err := parseArgs(call.Arguments)
	if err != nil {
		return "", nil, err
	}
	t.pill(call.TurnID, "running")
	var res string
	if action == ActionOpen {
		res, err = t.open(u)
	} else {
		res, err = t.read(ctx, u)
	}
	state := "done"
	if err != nil || strings.HasPrefix(res, "error: ") {
		state = "failed"
	}
	t.pill(call.TurnID, state)
	return res, nil, err
}

func (t *Tool) pill(turnID, state string) {
	if t.cfg.Pill != nil {
		t.cfg.Pill(turnID, state)
	}
}

func (t *Tool) open(u *url.URL) (string, error) {
	site := Site(u)
	if t.cfg.Sites == nil {
		return ResultDenied, nil
	}
	switch err := t.cfg.Sites.Request(site); {
	case errors.Is(err, permission.ErrPending):
		return ResultPending, nil
	case errors.Is(err, permission.ErrDenied):
		t.log.Info("browser.open", "site", site, "outcome", "denied")
		return ResultDenied, nil
	case err != nil:
		return "", fmt.Errorf("browser: permission: %w", err)
	}
	if err := t.cfg.Open(u.String()); err != nil {
		t.log.Warn("browser.open", "site", site, "err", err.Error())
		return "", fmt.Errorf("browser: open: %w", err)
	}
	t.log.Info("browser.open", "site", site, "outcome", "ok")
	return "ok", nil
}

func (t *Tool) read(ctx context.Context, u *url.URL) (string, error) {
	p, err := t.cfg.Fetcher.Read(ctx, u.String())
	var unsup *UnsupportedError
	switch {
	case errors.Is(err, ErrBlocked):
		t.log.Info("browser.read", "site", Site(u), "outcome", "blocked")
		return ResultBlocked, nil
	case errors.Is(err, ErrTooLarge):
		return ResultTooBig, nil
	case errors.As(err, &unsup):
		return "error: " + unsup.Error(), nil
	case err != nil:
		t.log.Info("browser.read", "site", Site(u), "err", err.Error())
		return "", fmt.Errorf("browser: read: %w", err)
	}
	t.log.Info("browser.read", "site", Site(u), "outcome", "ok", "chars", len(p.Text))
	return p.Answer(), nil
}

// Site is what the open permission is kept for: the URL's host, lower
// case, without a port.
func Site(u *url.URL) string { return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".") }

// parseArgs validates a call's arguments.
func parseArgs(raw json.RawMessage) (string, *url.URL, error) {
	f, err := transport.ToolArgFields(raw, "action", "url")
	if err != nil {
		return "", nil, err
	}
	action, err := transport.StringArg(f, "action")
	if err != nil {
		return "", nil, err
	}
	if action != ActionOpen && action != ActionRead {
		return "", nil, transport.InvalidField("action")
	}
	s, err := transport.StringArg(f, "url")
	if err != nil {
		return "", nil, err
	}
	u, err := ParseURL(s)
	if err != nil {
		return "", nil, transport.InvalidField("url")
	}
	return action, u, nil
}
