package browse

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"yui/app/permission"
	"yui/transport"
)

// The reader's limits: the size cap, content types, no credentials; the answer fits the result frame; the tool.

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
