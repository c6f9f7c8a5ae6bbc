package browse

import (
	"context"
	"encoding/json"
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

	"yui/app/permission"
	"yui/transport"
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

func TestSizeCapContentTypesAndCredentials(t *testing.T) {
	var sawCookie, sawAuth bool
	e := newEnv(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawCookie = sawCookie || r.Header.Get("Cookie") != ""
		sawAuth = sawAuth || r.Header.Get("Authorization") != ""
		switch r.URL.Path {
		case "/huge":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html><body><p>")
			chunk := []byte(strings.Repeat("all work and no play ", 1000))
			for sent := 0; sent < MaxBody+len(chunk); sent += len(chunk) {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		case "/huge-declared":
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", fmt.Sprint(MaxBody+1))
			w.WriteHeader(200)
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF-1.7")
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"a":1}`)
		case "/set-cookie":
			http.SetCookie(w, &http.Cookie{Name: "session", Value: "s3cret"})
			http.Redirect(w, r, "/plain", http.StatusFound)
		case "/plain":
			htmlHandler(page(t, "news.html"))(w, r)
		}
	}))
	base := "http://news.example:" + e.port()
	for path, want := range map[string]error{"/huge": ErrTooLarge, "/huge-declared": ErrTooLarge} {
		if _, err := e.f.Read(t.Context(), base+path); !errors.Is(err, want) {
			t.Errorf("%s: %v", path, err)
		}
	}
	for path, typ := range map[string]string{"/pdf": "application/pdf", "/json": "application/json"} {
		_, err := e.f.Read(t.Context(), base+path)
		var u *UnsupportedError
		if !errors.As(err, &u) || u.Type != typ {
			t.Errorf("%s: %v", path, err)
		}
	}
	if _, err := e.f.Read(t.Context(), base+"/set-cookie"); err != nil {
		t.Fatal(err)
	}
	if sawCookie || sawAuth {
		t.Fatal("a cookie or credentials were sent")
	}
	if _, err := ParseURL("http://user:pw@news.example/"); err == nil {
		t.Fatal("a URL with credentials was accepted")
	}
}

func TestAnswerFitsTheResultFrame(t *testing.T) {
	long := strings.Repeat("\"quoted\" <tag> \u0001 ", 40000)
	a := Page{Title: "T", Text: long}.Answer()
	b, _ := json.Marshal(a)
	if len(b) > MaxText || !strings.HasPrefix(a, "T\n\n") || !strings.HasSuffix(a, "…") {
		t.Fatalf("answer is %d bytes quoted (cap %d)", len(b), MaxText)
	}
	if s := (Page{Title: "T", Text: "short"}).Answer(); s != "T\n\nshort" {
		t.Fatalf("short answer %q", s)
	}
}

func TestToolOpenReadPillAndBadCalls(t *testing.T) {
	e := newEnv(t, htmlHandler(page(t, "news.html")))
	var opened, pill []string
	var prompts []permission.Prompt
	g := permission.NewSiteGate(permission.SiteConfig{OnPrompt: func(p permission.Prompt) { prompts = append(prompts, p) }})
	tool := New(Config{Fetcher: e.f, Sites: g, Open: func(u string) error { opened = append(opened, u); return nil },
		Pill: func(turn, state string) { pill = append(pill, turn+" "+state) }})
	run := func(args string) string {
		raw := json.RawMessage(args)
		if err := tool.Validate(raw); err != nil {
			return "error: " + err.Error()
		}
		res, _, err := tool.Run(t.Context(), transport.ToolCall{ID: "c", TurnID: "7", Name: Name, Arguments: raw})
		if err != nil {
			return "error: " + err.Error()
		}
		return res
	}
	for args, want := range map[string]string{
		`{"url":"https://a.example"}`:                   "error: missing field action",
		`{"action":"open"}`:                             "error: missing field url",
		`{"action":"close","url":"https://a.example"}`:  "error: invalid field action",
		`{"action":"read","url":"ftp://a.example/x"}`:   "error: invalid field url",
		`{"action":"read","url":"file:///etc/passwd"}`:  "error: invalid field url",
		`{"action":"read","url":"javascript:alert(1)"}`: "error: invalid field url",
		`{"action":"read","url":7}`:                     "error: invalid field url",
		`{"action":"read","url":"https://a","x":1}`:     "error: invalid field x",
	} {
		if got := run(args); got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
	if len(pill) != 0 {
		t.Fatalf("a refused call showed on the pill: %v", pill)
	}
	if got := run(`{"action":"open","url":"https://news.example/a"}`); got != ResultPending || len(prompts) != 1 || prompts[0].Site != "news.example" {
		t.Fatalf("first open: %q, prompts %+v", got, prompts)
	}
	g.Answer(prompts[0].ID, permission.Always)
	if got := run(`{"action":"open","url":"https://NEWS.example:443/b"}`); got != "ok" || len(opened) != 1 {
		t.Fatalf("open after always: %q %v", got, opened)
	}
	if got := run(`{"action":"read","url":"http://news.example:` + e.port() + `/"}`); !strings.HasPrefix(got, "Harbour town") {
		t.Fatalf("read: %.80q", got)
	}
	if got := run(`{"action":"read","url":"http://127.0.0.1:` + e.port() + `/"}`); got != ResultBlocked {
		t.Fatalf("read loopback: %q", got)
	}
	want := []string{"7 running", "7 failed", "7 running", "7 done", "7 running", "7 done", "7 running", "7 failed"}
	if strings.Join(pill, ",") != strings.Join(want, ",") {
		t.Fatalf("pill %v, want %v", pill, want)
	}
	if tool.Wait().Seconds() != 32 {
		t.Fatalf("wait %v", tool.Wait())
	}
}
