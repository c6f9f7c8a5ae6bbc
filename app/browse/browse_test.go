package browse

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
)

// fakeDNS answers names from a table; a name may answer differently on
// each lookup (a rebinding name).
type fakeDNS struct {
	mu      sync.Mutex
	answers map[string][]string // name → the address of each lookup in turn (the last repeats)
	lookups map[string]int
}

func (d *fakeDNS) LookupIPAddr(_ context.Context, host string) ([]net.IPAddr, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	as, ok := d.answers[host]
	if !ok {
		return nil, fmt.Errorf("no such host %s", host)
	}
	n := d.lookups[host]
	d.lookups[host]++
	a := as[min(n, len(as)-1)]
	return []net.IPAddr{{IP: net.ParseIP(a)}}, nil
}

// public is the address test names resolve to; the test's dial routes it
// to the test server (only addresses the guard let through reach Dial).
const public = "93.184.216.34"

type env struct {
	srv    *httptest.Server
	dns    *fakeDNS
	f      *Fetcher
	dialed []string
	local  bool
}

func newEnv(t *testing.T, h http.Handler) *env {
	t.Helper()
	e := &env{srv: httptest.NewServer(h)}
	t.Cleanup(e.srv.Close)
	e.dns = &fakeDNS{lookups: map[string]int{}, answers: map[string][]string{
		"news.example":     {public},
		"intranet.example": {"10.1.2.3"},
		"router.example":   {"192.168.1.1"},
		"v6local.example":  {"fe80::1"},
		"mapped.example":   {"::ffff:127.0.0.1"},
		"rebind.example":   {public, "127.0.0.1"},
	}}
	var mu sync.Mutex
	e.f = NewFetcher(FetchConfig{
		AllowLocal: func() bool { return e.local },
		Resolver:   e.dns,
		Proxy:      func(*http.Request) (*url.URL, error) { return nil, nil },
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			e.dialed = append(e.dialed, addr)
			mu.Unlock()
			ap := netip.MustParseAddrPort(addr)
			if ap.Addr().String() != public && !e.local {
				return nil, fmt.Errorf("test: a dial to %s got past the guard", addr)
			}
			var d net.Dialer
			return d.DialContext(ctx, network, e.srv.Listener.Addr().String())
		},
	})
	return e
}

func (e *env) port() string {
	_, p, _ := net.SplitHostPort(e.srv.Listener.Addr().String())
	return p
}

func page(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func htmlHandler(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(body)
	}
}

func TestLocalClasses(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "127.9.9.9", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.0.10",
		"169.254.169.254", "224.0.0.251", "239.255.255.250", "0.0.0.0", "255.255.255.255", "100.64.0.1",
		"::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "ff05::2", "::ffff:10.0.0.1", "::ffff:127.0.0.1",
		"64:ff9b::7f00:1", "64:ff9b::a00:1", "fe80::1%eth0"} {
		if !Local(netip.MustParseAddr(s)) {
			t.Errorf("%s is not blocked", s)
		}
	}
	for _, s := range []string{"93.184.216.34", "8.8.8.8", "172.32.0.1", "192.169.0.1", "2606:4700::1111", "64:ff9b::808:808"} {
		if Local(netip.MustParseAddr(s)) {
			t.Errorf("%s is blocked", s)
		}
	}
	g := &guard{allowLocal: func() bool { return false }}
	for _, a := range []string{"127.0.0.1:80", "[::1]:443", "[fe80::1%25eth0]:80", "10.0.0.1:8080"} {
		if err := g.control("tcp", a, nil); !errors.Is(err, ErrBlocked) {
			t.Errorf("the dialer's Control let %s through: %v", a, err)
		}
	}
	if err := g.control("tcp4", public+":443", nil); err != nil {
		t.Errorf("the dialer's Control refused a public address: %v", err)
	}
}

func TestReadsAPublicPageTitleFirst(t *testing.T) {
	e := newEnv(t, htmlHandler(page(t, "news.html")))
	p, err := e.f.Read(t.Context(), "http://news.example:"+e.port()+"/2026/03/library")
	if err != nil {
		t.Fatal(err)
	}
	ans := p.Answer()
	if !strings.HasPrefix(ans, "Harbour town opens its first tide-powered library") {
		t.Fatalf("the title is not first: %.120q", ans)
	}
	for _, want := range []string{"draws all of its electricity from the tide", "a window in the floor", "surplus sold back"} {
		if !strings.Contains(ans, want) {
			t.Errorf("the article lost %q:\n%s", want, ans)
		}
	}
	for _, junk := range []string{"ADVERTISEMENT", "Subscribe now", "Most read", "All rights reserved", "dataLayer"} {
		if strings.Contains(ans, junk) {
			t.Errorf("the answer kept the page's %q", junk)
		}
	}
}

func TestReadabilityOnABlogAndADocsPage(t *testing.T) {
	for _, c := range []struct {
		file, title string
		keep, drop  []string
	}{
		{"blog.html", "Sourdough at altitude", []string{"ninety-three degrees", "shorten the bulk ferment", "neighbours ask for a slice"}, []string{"Archives", "cheap watches"}},
		{"docs.html", "Configuring the backup schedule", []string{"skiff.toml", "shorter than five minutes is refused", "skiff check"}, []string{"Search docs", "Built with Sphinx"}},
	} {
		e := newEnv(t, htmlHandler(page(t, c.file)))
		p, err := e.f.Read(t.Context(), "http://news.example:"+e.port()+"/"+c.file)
		if err != nil {
			t.Fatal(err)
		}
		ans := p.Answer()
		if !strings.HasPrefix(ans, c.title) {
			t.Errorf("%s: the title is not first: %.100q", c.file, ans)
		}
		for _, k := range c.keep {
			if !strings.Contains(ans, k) {
				t.Errorf("%s: lost %q:\n%s", c.file, k, ans)
			}
		}
		for _, d := range c.drop {
			if strings.Contains(ans, d) {
				t.Errorf("%s: kept %q", c.file, d)
			}
		}
	}
}

func TestBlockedAddresses(t *testing.T) {
	e := newEnv(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, "http://127.0.0.1:"+e2port(r)+"/secret", http.StatusFound)
		case "/to-intranet":
			http.Redirect(w, r, "http://intranet.example/admin", http.StatusMovedPermanently)
		case "/to-rebind":
			http.Redirect(w, r, "http://rebind.example:"+e2port(r)+"/secret", http.StatusFound)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/secret":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><head><title>secret</title></head><body><p>the router's admin page</p></body></html>")
		default:
			http.NotFound(w, r)
		}
	}))
	p := e.port()
	for _, u := range []string{
		"http://127.0.0.1:" + p + "/secret",
		"http://[::1]:" + p + "/secret",
		"http://intranet.example:" + p + "/secret", // a DNS name resolving to a private address
		"http://router.example/",
		"http://v6local.example/",
		"http://mapped.example/",
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:127.0.0.1]:" + p + "/secret",
		"http://0.0.0.0:" + p + "/secret",
		"http://news.example:" + p + "/to-loopback", // a public name redirecting to 127.0.0.1
		"http://news.example:" + p + "/to-intranet",
		"http://rebind.example:" + p + "/to-rebind", // public for the first lookup, loopback for the second
	} {
		_, err := e.f.Read(t.Context(), u)
		if !errors.Is(err, ErrBlocked) {
			t.Errorf("%s: %v, want blocked", u, err)
		}
	}
	for _, d := range e.dialed {
		if !strings.HasPrefix(d, public+":") {
			t.Errorf("dialled %s", d)
		}
	}
	if _, err := e.f.Read(t.Context(), "http://news.example:"+p+"/to-file"); err == nil || errors.Is(err, ErrBlocked) || !strings.Contains(err.Error(), "http and https") {
		t.Errorf("a redirect to file: %v", err)
	}

	// The switch lets the character read the local network.
	e.local = true
	pg, err := e.f.Read(t.Context(), "http://news.example:"+p+"/to-loopback")
	if err != nil || pg.Title != "secret" {
		t.Fatalf("with local pages allowed: %+v %v", pg, err)
	}
}

// e2port is the port the request came in on.
func e2port(r *http.Request) string {
	_, p, _ := net.SplitHostPort(r.Host)
	return p
}

// The real dialer (no Dial hook): a name resolving to loopback is refused,
// and with the switch on the page is read over a real socket.
func TestTheRealDialerChecks(t *testing.T) {
	srv := httptest.NewServer(htmlHandler(page(t, "docs.html")))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	local := false
	f := NewFetcher(FetchConfig{
		AllowLocal: func() bool { return local },
		Resolver:   &fakeDNS{lookups: map[string]int{}, answers: map[string][]string{"lan.example": {"127.0.0.1"}}},
		Proxy:      func(*http.Request) (*url.URL, error) { return nil, nil },
	})
	if _, err := f.Read(t.Context(), "http://lan.example:"+port+"/"); !errors.Is(err, ErrBlocked) {
		t.Fatalf("switch off: %v", err)
	}
	local = true
	p, err := f.Read(t.Context(), "http://lan.example:"+port+"/")
	if err != nil || !strings.HasPrefix(p.Title, "Configuring the backup schedule") {
		t.Fatalf("switch on: %+v %v", p, err)
	}
}

// Through a proxy the proxy resolves the name: the fetch checks it first.
func TestAProxiedReadChecksTheTarget(t *testing.T) {
	var got []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.URL.String())
		htmlHandler(page(t, "blog.html"))(w, r)
	}))
	defer proxy.Close()
	pu, _ := url.Parse(proxy.URL)
	f := NewFetcher(FetchConfig{
		Resolver: &fakeDNS{lookups: map[string]int{}, answers: map[string][]string{"news.example": {public}, "intranet.example": {"10.0.0.7"}}},
		Proxy:    func(*http.Request) (*url.URL, error) { return pu, nil },
	})
	if _, err := f.Read(t.Context(), "http://intranet.example/"); !errors.Is(err, ErrBlocked) {
		t.Fatalf("a private name through the proxy: %v", err)
	}
	p, err := f.Read(t.Context(), "http://news.example/post")
	if err != nil || !strings.HasPrefix(p.Title, "Sourdough") {
		t.Fatalf("through the proxy: %+v %v", p, err)
	}
	if len(got) != 1 || got[0] != "http://news.example/post" {
		t.Fatalf("the proxy saw %v", got)
	}
}
