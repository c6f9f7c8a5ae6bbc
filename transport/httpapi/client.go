package httpapi

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Proxy is the proxy rule of every HTTP client Yui has: the one the
// environment names (http.ProxyFromEnvironment: HTTPS_PROXY for https,
// HTTP_PROXY for http, NO_PROXY's exceptions; read once per process), and
// none for a loopback host (localhost, 127.0.0.0/8, ::1), whatever the
// environment says — a local model server, the demo backend and Yui's own
// windows are never sent through a proxy.
func Proxy(req *http.Request) (*url.URL, error) {
	if Loopback(req.URL.Hostname()) {
		return nil, nil
	}
	return http.ProxyFromEnvironment(req)
}

// Loopback reports whether host (a name or an address, without port) is
// this machine's loopback.
func Loopback(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// NewClient is the HTTP client every API caller uses by default: Proxy,
// no redirect followed, keep-alive on, bounded dial and TLS handshake. It
// sets no overall timeout (a chat answer streams for minutes): callers
// bound a request with its context.
func NewClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 Proxy,
			DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          8,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   10 * time.Second,
			ExpectContinueTimeout: time.Second,
		},
		CheckRedirect: NoRedirects,
	}
}

// Guard returns hc with redirects refused (a copy; hc is not changed), or
// NewClient() when hc is nil.
func Guard(hc *http.Client) *http.Client {
	if hc == nil {
		return NewClient()
	}
	c := *hc
	c.CheckRedirect = NoRedirects
	return &c
}

// NoRedirects is a CheckRedirect that follows none: the redirect answer
// itself is returned.
func NoRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
