package httpapi_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"yui/transport/httpapi"
)

const childEnv = "YUI_HTTPAPI_PROXY_CHILD"

// The proxy rule, in a process of its own (the environment is read once
// per process): HTTP_PROXY and HTTPS_PROXY are honoured, NO_PROXY's hosts
// go direct, and loopback is never proxied, whatever the environment says.
func TestProxyRule(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		proxyRuleChild(t)
		return
	}
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.String())
		mu.Unlock()
		io.WriteString(w, "via proxy")
	}))
	defer proxy.Close()
	direct := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "direct")
	}))
	defer direct.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestProxyRule$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1", "HTTP_PROXY="+proxy.URL, "HTTPS_PROXY="+proxy.URL,
		"NO_PROXY=skip.example.test", "http_proxy=", "https_proxy=", "no_proxy=", "YUI_DIRECT_URL="+direct.URL)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "http://api.example.test/v1/models" {
		t.Fatalf("the proxy saw %q, want the one request to api.example.test (loopback never proxied)", seen)
	}
}

func proxyRuleChild(t *testing.T) {
	proxyURL := os.Getenv("HTTP_PROXY")
	for _, c := range []struct {
		url   string
		proxy string
	}{
		{"http://api.example.test/v1/models", proxyURL},
		{"https://api.example.test/v1/models", proxyURL},
		{"http://skip.example.test/v1", ""},
		{"http://127.0.0.1:8080/v1", ""},
		{"http://127.8.0.1:8080/v1", ""},
		{"http://localhost:8646/ws", ""},
		{"http://LOCALHOST./", ""},
		{"http://[::1]:1234/", ""},
	} {
		req, _ := http.NewRequest(http.MethodGet, c.url, nil)
		u, err := httpapi.Proxy(req)
		got := ""
		if u != nil {
			got = u.String()
		}
		if err != nil || got != c.proxy {
			t.Errorf("Proxy(%s) = %q, %v; want %q", c.url, got, err, c.proxy)
		}
	}
	hc := httpapi.NewClient()
	for url, want := range map[string]string{"http://api.example.test/v1/models": "via proxy", os.Getenv("YUI_DIRECT_URL"): "direct"} {
		resp, err := hc.Get(url)
		if err != nil {
			t.Fatalf("GET %s: %v", url, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != want {
			t.Errorf("GET %s answered %q, want %q", url, b, want)
		}
	}
}

// No client follows a redirect: the key stays with the URL it was entered
// for.
func TestNoRedirectIsFollowed(t *testing.T) {
	var other int
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { other++ }))
	defer elsewhere.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	for name, hc := range map[string]*http.Client{"NewClient": httpapi.NewClient(), "Guard(default)": httpapi.Guard(&http.Client{})} {
		req, _ := httpapi.NewRequest(t.Context(), http.MethodPost, srv.URL, "sk-secret", strings.NewReader("{}"))
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTemporaryRedirect || other != 0 {
			t.Fatalf("%s: status %d, %d requests elsewhere: the redirect was followed", name, resp.StatusCode, other)
		}
	}
}

func TestErrorTextIsOneLineWithoutTheKey(t *testing.T) {
	for _, c := range []struct{ body, ct, want string }{
		{`{"error":{"message":"bad key sk-abc\nsee docs"}}`, "application/json", "bad key (key) see docs"},
		{`{"error":"nope sk-abc"}`, "application/json", "nope (key)"},
		{`{"detail":"Not Found"}`, "application/json", "Not Found"},
		{`<html><title>502 Bad Gateway</title><body>sk-abc</body></html>`, "text/html", "502 Bad Gateway"},
		{"plain sk-abc text", "text/plain", "plain (key) text"},
	} {
		rec := httptest.NewRecorder()
		rec.Header().Set("Content-Type", c.ct)
		rec.WriteHeader(500)
		io.WriteString(rec, c.body)
		if got := httpapi.ReadError(rec.Result(), "sk-abc"); got.Text != c.want || got.Status != 500 {
			t.Errorf("ReadError(%q) = %d %q, want 500 %q", c.body, got.Status, got.Text, c.want)
		}
	}
}
