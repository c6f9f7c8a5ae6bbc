package conncause

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"

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
	// Text is one plain sentence, e.g. "Can't reach 127.0.0.1:8646:
	// connection refused — nothing is listening there."
	Text string
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
		return Cause{Kind: Key, Text: "The backend refused the key. Check the key in Settings → Backend.", Settings: true}
	case errors.As(err, &up):
		switch {
		case up.Status == 401 || up.Status == 403:
			return Cause{Kind: Key, Status: up.Status, Text: fmt.Sprintf("The backend refused the key (HTTP %d). Check the key in Settings → Backend.", up.Status), Settings: true}
		case up.Status >= 500:
			return Cause{Kind: HTTP, Status: up.Status, Text: fmt.Sprintf("The server at %s had a problem (HTTP %d). Yui keeps trying.", where, up.Status)}
		}
		return Cause{Kind: NotPush, Status: up.Status, Settings: true, Text: fmt.Sprintf("This server does not speak the push protocol (HTTP %d on upgrade) — "+
			"is it an OpenAI-compatible server? Choose its API in Settings.", up.Status)}
	case unreadableAnswer(err):
		c, _ := Unexpected(err, endpoint, "what its API sends")
		return c
	case isTLS(err):
		return Cause{Kind: TLS, Text: fmt.Sprintf("TLS problem with %s: %s.", host, tlsReason(err)), Settings: true}
	case errors.As(err, &dns) && dns.IsNotFound:
		return Cause{Kind: NoHost, Text: fmt.Sprintf("Can't reach %s: no such host — check the address.", host), Settings: true}
	case errors.Is(err, syscall.ECONNREFUSED):
		return Cause{Kind: Refused, Text: fmt.Sprintf("Can't reach %s: connection refused — nothing is listening there. Is the server running?", where)}
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return Cause{Kind: Unreachable, Text: fmt.Sprintf("Can't reach %s: no route to it (is the network up?).", where)}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded),
		errors.As(err, &dns) && dns.IsTimeout, errors.As(err, &ne) && ne.Timeout():
		return Cause{Kind: Timeout, Text: fmt.Sprintf("Can't reach %s: it did not answer in time.", where)}
	case errors.As(err, &dns):
		return Cause{Kind: NoHost, Text: fmt.Sprintf("Can't reach %s: the name could not be looked up.", host), Settings: true}
	}
	return Cause{Kind: Other, Text: fmt.Sprintf("Can't connect to %s: %s.", where, lastPart(err))}
}

// Unexpected explains err when the server answered but its body could not
// be read as what was asked for — want names that ("a model list") — e.g. a
// web page from a URL that is not the API's. It is the request wires'
// counterpart of NotPush: the server is there, the API or the URL is
// wrong. ok is false when err is not such an answer (no JSON decoding
// error in its chain).
func Unexpected(err error, endpoint, want string) (c Cause, ok bool) {
	if !unreadableAnswer(err) {
		return Cause{}, false
	}
	sent := "it sent something else"
	var se *json.SyntaxError
	if errors.As(err, &se) && strings.Contains(se.Error(), "'<'") {
		sent = "it sent a web page"
	}
	return Cause{Kind: NotAPI, Settings: true, Text: fmt.Sprintf("The server at %s answered, but not with %s (%s) — "+
		"is the API or the URL wrong? Check the Chat API and the base URL in Settings.", HostPort(endpoint), want, sent)}, true
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

// tlsReason is the TLS failure in plain words.
func tlsReason(err error) string {
	var (
		ua x509.UnknownAuthorityError
		he x509.HostnameError
		ci x509.CertificateInvalidError
		rh tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &ua):
		return "its certificate is not trusted (signed by an unknown authority)"
	case errors.As(err, &he):
		return "its certificate is for another name"
	case errors.As(err, &ci) && ci.Reason == x509.Expired:
		return "its certificate has expired or is not valid yet"
	case errors.As(err, &ci):
		return "its certificate is not valid"
	case errors.As(err, &rh), plainToTLS(err):
		return "it does not speak TLS (try http:// instead of https://)"
	}
	return lastPart(err)
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
