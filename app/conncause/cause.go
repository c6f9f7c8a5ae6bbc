package conncause

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"

	"yui/app/phrase"
	"yui/transport"
)

// Kind is a failure's cause, as the UI tells it apart.
type Kind string

// The causes.
const (
	None        Kind = ""
	Refused     Kind = "refused"     // nothing listens at host:port
	NoHost      Kind = "no_host"     // the name does not resolve
	Timeout     Kind = "timeout"     // no answer in time
	Unreachable Kind = "unreachable" // no route to the host
	TLS         Kind = "tls"         // certificate or handshake problem
	NotPush     Kind = "not_push"    // an HTTP answer to the push upgrade
	Key         Kind = "key"         // the backend refused the key
	HTTP        Kind = "http"        // the server answered an HTTP error
	NotAPI      Kind = "not_api"     // it answered, but not in the API's format (a web page)
	Other       Kind = "other"
)

// Cause is what the plate and Test connection say.
type Cause struct {
	Kind Kind
	// Text is one plain sentence in English, e.g. "Can't reach
	// 127.0.0.1:8646: connection refused — nothing is listening there."
	// (Msg.English()).
	Text string
	// Msg is Text as a phrase for the page to word in its language.
	Msg phrase.Phrase
	// Settings: the fix is in Settings → Backend (offer a button).
	Settings bool
	// Status is the HTTP status the server answered the upgrade with
	// (NotPush, and Key and HTTP from an upgrade); 0 otherwise.
	Status int
}

// Explain names err's cause for a connection to endpoint (the base URL as
// the preset has it). See the package doc.
func Explain(err error, endpoint string) Cause {
	if err == nil || errors.Is(err, transport.ErrNotConfigured) {
		return Cause{}
	}
	where := HostPort(endpoint)
	var (
		up   *transport.UpgradeStatusError
		dns  *net.DNSError
		ne   net.Error
		host = where
	)
	if h, _, e := net.SplitHostPort(where); e == nil {
		host = h
	}
	switch {
	case errors.Is(err, transport.ErrUnauthorized):
		return cause(Key, true, 0, "core.cause.key")
	case errors.As(err, &up):
		status := strconv.Itoa(up.Status)
		switch {
		case up.Status == 401 || up.Status == 403:
			return cause(Key, true, up.Status, "core.cause.key_http", "status", status)
		case up.Status >= 500:
			return cause(HTTP, false, up.Status, "core.cause.server_error", "where", where, "status", status)
		}
		return cause(NotPush, true, up.Status, "core.cause.not_push", "status", status)
	case unreadableAnswer(err):
		c, _ := Unexpected(err, endpoint, WantAPI)
		return c
	case isTLS(err):
		key, reason := tlsReason(err)
		if reason == "" {
			return cause(TLS, true, 0, key, "host", host)
		}
		return cause(TLS, true, 0, key, "host", host, "reason", reason)
	case errors.As(err, &dns) && dns.IsNotFound:
		return cause(NoHost, true, 0, "core.cause.no_host", "host", host)
	case errors.Is(err, syscall.ECONNREFUSED):
		return cause(Refused, false, 0, "core.cause.refused", "where", where)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return cause(Unreachable, false, 0, "core.cause.unreachable", "where", where)
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &dns) && dns.IsTimeout, errors.As(err, &ne) && ne.Timeout():
		return cause(Timeout, false, 0, "core.cause.timeout", "where", where)
	case errors.As(err, &dns):
		return cause(NoHost, true, 0, "core.cause.lookup", "host", host)
	}
	return cause(Other, false, 0, "core.cause.other", "where", where, "reason", lastPart(err))
}

// cause is a Cause with its phrase and the phrase's English text.
func cause(kind Kind, settings bool, status int, key string, pairs ...string) Cause {
	m := phrase.New(key, pairs...)
	return Cause{Kind: kind, Settings: settings, Status: status, Msg: m, Text: m.English()}
}

// Want names what a request asked the server for, for Unexpected.
type Want string

// What was asked for.
const (
	WantAPI    Want = "api"    // what the chat API sends
	WantModels Want = "models" // a model list
	WantAgents Want = "agents" // what a Standard Agents runtime sends
)

// Unexpected explains err when the server answered but its body could not
// be read as what was asked for — want names that (WantModels) — e.g. a
// web page from a URL that is not the API's. It is the request wires'
// counterpart of NotPush: the server is there, the API or the URL is
// wrong. ok is false when err is not such an answer (no JSON decoding
// error in its chain).
func Unexpected(err error, endpoint string, want Want) (c Cause, ok bool) {
	if !unreadableAnswer(err) {
		return Cause{}, false
	}
	sent := "other"
	var se *json.SyntaxError
	if errors.As(err, &se) && strings.Contains(se.Error(), "'<'") {
		sent = "page"
	}
	return cause(NotAPI, true, 0, "core.cause.not_"+string(want)+"_"+sent, "where", HostPort(endpoint)), true
}

// unreadableAnswer: err's chain holds a JSON decoding error, i.e. the
// server answered with a body that is not the JSON asked for.
func unreadableAnswer(err error) bool {
	var (
		se *json.SyntaxError
		te *json.UnmarshalTypeError
	)
	return errors.As(err, &se) || errors.As(err, &te)
}

// HostPort is endpoint's host:port, the port filled in from the scheme
// (http/ws 80, https/wss 443); the endpoint as typed when it has no host.
func HostPort(endpoint string) string {
	u, err := url.Parse(strings.TrimSpace(endpoint))
	if err != nil || u.Host == "" {
		return strings.TrimSpace(endpoint)
	}
	if u.Port() != "" {
		return u.Host
	}
	port := "80"
	if u.Scheme == "https" || u.Scheme == "wss" {
		port = "443"
	}
	return net.JoinHostPort(u.Hostname(), port)
}

func isTLS(err error) bool {
	var (
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
		cv *tls.CertificateVerificationError
		rh tls.RecordHeaderError
		al tls.AlertError
	)
	return errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci) || errors.As(err, &cv) ||
		errors.As(err, &rh) || errors.As(err, &al) || plainToTLS(err)
}

// tlsReason is the TLS failure's phrase key, and for a failure without
// one of its own the error's words.
func tlsReason(err error) (key, reason string) {
	var (
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
		rh tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &ua):
		return "core.cause.tls_untrusted", ""
	case errors.As(err, &he):
		return "core.cause.tls_name", ""
	case errors.As(err, &ci) && ci.Reason == x509.Expired:
		return "core.cause.tls_expired", ""
	case errors.As(err, &ci):
		return "core.cause.tls_invalid", ""
	case errors.As(err, &rh), plainToTLS(err):
		return "core.cause.tls_plain", ""
	}
	return "core.cause.tls", lastPart(err)
}

// plainToTLS is net/http's untyped "server gave HTTP response to HTTPS
// client" (it replaces the tls.RecordHeaderError).
func plainToTLS(err error) bool {
	return strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// lastPart is the end of an error's chain, the part a person reads.
func lastPart(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		msg = msg[i+2:]
	}
	return strings.TrimSuffix(msg, ".")
}
