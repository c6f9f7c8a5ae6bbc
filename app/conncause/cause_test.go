package conncause_test

import (
	"context"
	"encoding/binary"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"yui/app/conncause"
	"yui/transport/chatcompletions"
	"yui/transport/push"
)

// probe tries base as the push wire does and explains the failure.
func probe(t *testing.T, hc *http.Client, base string, wait time.Duration) conncause.Cause {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	err := push.Probe(ctx, hc, base, "k", "yui-00000000")
	if err == nil {
		t.Fatalf("probe of %s succeeded", base)
	}
	return conncause.Explain(err, base)
}

func want(t *testing.T, got conncause.Cause, kind conncause.Kind, settings bool, parts ...string) {
	t.Helper()
	if got.Kind != kind || got.Settings != settings {
		t.Fatalf("cause %+v, want kind %s settings %v", got, kind, settings)
	}
	for _, p := range parts {
		if !strings.Contains(got.Text, p) {
			t.Fatalf("text %q lacks %q", got.Text, p)
		}
	}
	if strings.Contains(got.Text, "\n") || strings.Contains(got.Text, "dial tcp") {
		t.Fatalf("text %q is not plain", got.Text)
	}
}

// closedPort is a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestRefusedPortNamesHostAndPort(t *testing.T) {
	addr := closedPort(t)
	want(t, probe(t, nil, "http://"+addr, 10*time.Second), conncause.Refused, false, "Can't reach "+addr, "connection refused")
	// The request wires say the same.
	_, err := chatcompletions.ListModels(context.Background(), nil, "http://"+addr+"/v1", "k")
	want(t, conncause.Explain(err, "http://"+addr+"/v1"), conncause.Refused, false, addr)
}

func TestHTTP404OnUpgradeIsNotPush(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	want(t, probe(t, nil, srv.URL, 10*time.Second), conncause.NotPush, true,
		"does not speak the push protocol (HTTP 404 on upgrade)", "OpenAI-compatible", "Choose its API in Settings")
}

func TestHTTP401OnUpgradeIsTheKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusUnauthorized) }))
	defer srv.Close()
	want(t, probe(t, nil, srv.URL, 10*time.Second), conncause.Key, true, "refused the key (HTTP 401)")
	_, err := chatcompletions.ListModels(context.Background(), nil, srv.URL, "k")
	if c := conncause.Explain(err, srv.URL); c.Kind == conncause.Refused || c.Kind == conncause.Timeout {
		t.Fatalf("a 401 to /models explained as %+v", c)
	}
}

func TestKeyRefusedByThePushBackend(t *testing.T) {
	want(t, conncause.Explain(push.ErrUnauthorized, "http://127.0.0.1:8646"), conncause.Key, true, "refused the key")
}

func TestUntrustedCertificateIsATLSProblem(t *testing.T) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	defer srv.Close()
	want(t, probe(t, nil, srv.URL, 10*time.Second), conncause.TLS, true, "TLS problem with 127.0.0.1", "not trusted")
}

func TestHTTPSToAPlainServerIsATLSProblem(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	base := strings.Replace(srv.URL, "http://", "https://", 1)
	want(t, probe(t, nil, base, 10*time.Second), conncause.TLS, true, "does not speak TLS")
}

func TestUnresolvableNameIsNoSuchHost(t *testing.T) {
	dns := nxdomainServer(t)
	dialer := &net.Dialer{Resolver: &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", dns)
	}}}
	hc := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	want(t, probe(t, hc, "http://yui-nowhere.invalid:8646", 10*time.Second), conncause.NoHost, true, "Can't reach yui-nowhere.invalid", "no such host")
}

func TestSilentServerTimesOut(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	want(t, probe(t, nil, "http://"+ln.Addr().String(), 300*time.Millisecond), conncause.Timeout, false,
		"Can't reach "+ln.Addr().String(), "did not answer in time")
}

func TestHostPortFillsThePort(t *testing.T) {
	for in, out := range map[string]string{
		"http://127.0.0.1:8646":        "127.0.0.1:8646",
		"https://api.openai.com/v1":    "api.openai.com:443",
		"http://user:pw@example.com/x": "example.com:80",
		"localhost:11434":              "localhost:11434",
	} {
		if got := conncause.HostPort(in); got != out {
			t.Errorf("HostPort(%q) = %q, want %q", in, got, out)
		}
	}
	if c := conncause.Explain(nil, "x"); c.Kind != conncause.None || c.Text != "" {
		t.Fatalf("nil error: %+v", c)
	}
}

// nxdomainServer is a DNS server on loopback UDP that answers every query
// "no such name" (RCODE 3), the resolver the no-such-host test controls.
func nxdomainServer(t *testing.T) string {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 12 {
				continue
			}
			resp := append([]byte(nil), buf[:n]...)
			flags := binary.BigEndian.Uint16(resp[2:4])
			flags |= 1 << 15       // QR: a response
			flags |= 1 << 7        // RA
			flags = flags&^0xF | 3 // RCODE NXDOMAIN
			binary.BigEndian.PutUint16(resp[2:4], flags)
			binary.BigEndian.PutUint16(resp[6:8], 0)   // no answers
			binary.BigEndian.PutUint16(resp[8:10], 0)  // no authority
			binary.BigEndian.PutUint16(resp[10:12], 0) // no additional
			_, _ = pc.WriteTo(resp, from)
		}
	}()
	return pc.LocalAddr().String()
}

// A web page where the model list was due (a URL that is not the API's):
// the server answered; the API or the URL is wrong — not JSON's words.
func TestWebPageInsteadOfModelsIsNotTheAPI(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte("<!doctype html><html><body>Router login</body></html>"))
	}))
	defer srv.Close()
	_, err := chatcompletions.ListModels(context.Background(), nil, srv.URL, "k")
	if err == nil {
		t.Fatal("a web page read as a model list")
	}
	where := conncause.HostPort(srv.URL)
	c, ok := conncause.Unexpected(err, srv.URL, conncause.WantModels)
	if !ok {
		t.Fatalf("Unexpected did not recognise %v", err)
	}
	want(t, c, conncause.NotAPI, true, "The server at "+where+" answered, but not with a model list (it sent a web page)",
		"is the API or the URL wrong?")
	if strings.Contains(c.Text, "invalid character") {
		t.Fatalf("text %q is JSON's words", c.Text)
	}
	want(t, conncause.Explain(err, srv.URL), conncause.NotAPI, true, "answered, but not with what its API sends (it sent a web page)")
	// Other JSON is not a web page.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{"data":"nope"}`)) }))
	defer other.Close()
	_, err = chatcompletions.ListModels(context.Background(), nil, other.URL, "k")
	c, ok = conncause.Unexpected(err, other.URL, conncause.WantModels)
	if !ok {
		t.Fatalf("Unexpected did not recognise %v", err)
	}
	want(t, c, conncause.NotAPI, true, "not with a model list (it sent something else)")
	// A network error is not an answer.
	if _, ok := conncause.Unexpected(errors.New("dial tcp: connection refused"), srv.URL, conncause.WantModels); ok {
		t.Fatal("a dial error called an answer")
	}
}
