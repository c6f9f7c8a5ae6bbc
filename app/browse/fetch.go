package browse

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	readability "codeberg.org/readeck/go-readability/v2"

	"yui/transport/httpapi"
)

// The fetch's bounds.
const (
	// MaxBody is the most of a page read (5 MB).
	MaxBody = 5 << 20
	// MaxRedirects is the most redirects followed.
	MaxRedirects = 10
	// MaxText bounds the answer's JSON-quoted size, so the tool_result
	// frame (256 KiB for text) has room for its ids.
	MaxText = 256<<10 - 4<<10
)

// The fetch's answers that are not the page's text.
var (
	ErrTooLarge = errors.New("page too large")
	ErrScheme   = errors.New("only http and https pages can be read")
)

// UnsupportedError is a page that is not HTML.
type UnsupportedError struct{ Type string }

func (e *UnsupportedError) Error() string { return "unsupported content " + e.Type }

// FetchConfig is what a Fetcher dials through.
type FetchConfig struct {
	// AllowLocal reads the character's "may read pages on this computer
	// and local network" switch at each dial; nil is off.
	AllowLocal func() bool
	// Resolver looks names up; nil is net.DefaultResolver.
	Resolver Resolver
	// Dial connects to one checked "ip:port"; nil is a net.Dialer whose
	// Control checks it again. Tests route public test addresses to their
	// servers with it.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Proxy picks a request's proxy; nil is httpapi.Proxy (the
	// environment's rule, as every Yui HTTP client follows it).
	Proxy func(*http.Request) (*url.URL, error)
	// UserAgent is sent with each request; "" is "Yui".
	UserAgent string
}

// Fetcher reads pages (see the package doc).
type Fetcher struct {
	cfg    FetchConfig
	g      *guard
	client *http.Client

	mu      sync.Mutex
	proxies map[string]bool // "host:port" of the proxies chosen so far
}

// NewFetcher returns a Fetcher.
func NewFetcher(cfg FetchConfig) *Fetcher {
	if cfg.AllowLocal == nil {
		cfg.AllowLocal = func() bool { return false }
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Proxy == nil {
		cfg.Proxy = httpapi.Proxy
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "Yui"
	}
	f := &Fetcher{cfg: cfg, proxies: map[string]bool{}}
	f.g = &guard{resolver: cfg.Resolver, allowLocal: cfg.AllowLocal, dial: cfg.Dial}
	f.client = &http.Client{
		Transport: &http.Transport{
			Proxy:                  f.proxy,
			DialContext:            f.dialContext,
			DisableKeepAlives:      true,
			TLSHandshakeTimeout:    10 * time.Second,
			ResponseHeaderTimeout:  30 * time.Second,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: checkRedirect,
	}
	return f
}

// proxy is the environment's proxy rule; a proxied request's host is
// checked here, since the proxy resolves it, and the proxy's address is
// remembered as one the dial may reach.
func (f *Fetcher) proxy(req *http.Request) (*url.URL, error) {
	p, err := f.cfg.Proxy(req)
	if err != nil || p == nil {
		return p, err
	}
	if _, err := f.g.resolve(req.Context(), req.URL.Hostname()); err != nil {
		return nil, err
	}
	port := p.Port()
	if port == "" {
		port = map[string]string{"https": "443", "socks5": "1080"}[p.Scheme]
		if port == "" {
			port = "80"
		}
	}
	f.mu.Lock()
	f.proxies[net.JoinHostPort(p.Hostname(), port)] = true
	f.mu.Unlock()
	return p, nil
}

// dialContext dials a proxy the environment named as it is, and anything
// else through the guard.
func (f *Fetcher) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	f.mu.Lock()
	viaProxy := f.proxies[addr]
	f.mu.Unlock()
	if viaProxy {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	return f.g.dialContext(ctx, network, addr)
}

// checkRedirect follows up to MaxRedirects http(s) redirects without user
// info; each new URL's dial is checked by the guard.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return fmt.Errorf("more than %d redirects", MaxRedirects)
	}
	if _, err := checkURL(req.URL); err != nil {
		return err
	}
	req.Header.Del("Referer")
	req.Header.Del("Authorization")
	req.Header.Del("Cookie")
	return nil
}

// ParseURL reads a page URL the tool accepts: absolute http(s), with a
// host, without user info.
func ParseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("url: %w", err)
	}
	return checkURL(u)
}

func checkURL(u *url.URL) (*url.URL, error) {
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, ErrScheme
	case u.Host == "" || u.Hostname() == "":
		return nil, errors.New("url has no host")
	case u.User != nil:
		return nil, errors.New("url carries credentials")
	}
	u.Fragment = ""
	return u, nil
}

// Page is a read page.
type Page struct {
	URL   string // after redirects
	Title string
	Text  string
}

// Answer is the tool's answer: the title, a blank line, the text, cut so
// its JSON-quoted form fits MaxText.
func (p Page) Answer() string {
	s := strings.TrimSpace(p.Title)
	if s != "" && p.Text != "" {
		s += "\n\n"
	}
	return cutJSON(s+p.Text, MaxText)
}

// Read fetches u and extracts its readable text.
func (f *Fetcher) Read(ctx context.Context, raw string) (Page, error) {
	u, err := ParseURL(raw)
	if err != nil {
		return Page{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, fmt.Errorf("browse: %w", err)
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
	resp, err := f.client.Do(req)
	if err != nil {
		if errors.Is(err, ErrBlocked) {
			return Page{}, ErrBlocked
		}
		return Page{}, fmt.Errorf("browse: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return Page{}, fmt.Errorf("http status %d", resp.StatusCode)
	}
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if ct == "" {
		mt = "unknown"
	}
	if mt != "text/html" && mt != "application/xhtml+xml" {
		return Page{}, &UnsupportedError{Type: cutJSON(mt, 100)}
	}
	if resp.ContentLength > MaxBody {
		return Page{}, ErrTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return Page{}, fmt.Errorf("browse: read: %w", err)
	}
	if len(body) > MaxBody {
		return Page{}, ErrTooLarge
	}
	return extract(body, resp.Request.URL)
}

// extract runs Readability on an HTML page.
func extract(body []byte, u *url.URL) (Page, error) {
	a, err := readability.FromReader(bytes.NewReader(body), u)
	if err != nil {
		return Page{}, fmt.Errorf("browse: readable text: %w", err)
	}
	p := Page{URL: u.String(), Title: oneLine(a.Title())}
	if a.Node != nil {
		var b strings.Builder
		if err := a.RenderText(&b); err != nil {
			return Page{}, fmt.Errorf("browse: readable text: %w", err)
		}
		p.Text = tidy(b.String())
	}
	if p.Title == "" && p.Text == "" {
		return Page{}, errors.New("no readable text on the page")
	}
	return p, nil
}

// oneLine collapses whitespace runs to one space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// tidy trims each line and keeps at most one blank line between
// paragraphs.
func tidy(s string) string {
	var out []string
	blank := false
	for line := range strings.SplitSeq(s, "\n") {
		line = oneLine(line)
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// cutJSON keeps the longest prefix of s (whole characters) whose JSON
// string form is at most n bytes, marking a cut with "…".
func cutJSON(s string, n int) string {
	if quoted(s) <= n {
		return s
	}
	lo, hi := 0, len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		for mid > 0 && mid < len(s) && !utf8.RuneStart(s[mid]) {
			mid--
		}
		if mid <= lo {
			break
		}
		if quoted(s[:mid]+"…") <= n {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return s[:lo] + "…"
}

func quoted(s string) int {
	b, _ := json.Marshal(s)
	return len(b)
}
