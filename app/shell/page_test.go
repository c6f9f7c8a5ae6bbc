package shell

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const testManifest = `{
  "index.html": {"file": "assets/index-A.js", "isEntry": true, "dynamicImports": ["src/petboot.ts"]},
  "src/petboot.ts": {"file": "assets/petboot-B.js", "css": ["assets/petboot-B.css"], "imports": ["index.html", "_scheduler-C.js", "_shared-D.js"]},
  "_scheduler-C.js": {"file": "assets/scheduler-C.js", "imports": ["_shared-D.js"]},
  "_shared-D.js": {"file": "assets/shared-D.js", "css": ["assets/shared-D.css"]},
  "src/settings/boot.ts": {"file": "assets/boot-E.js"}
}`

func testAssets() fstest.MapFS {
	return fstest.MapFS{
		"index.html":          {Data: []byte(`<!doctype html><html><head><title>Yui</title><script type="module" src="/assets/index-A.js"></script></head><body></body></html>`)},
		".vite/manifest.json": {Data: []byte(testManifest)},
		"assets/index-A.js":   {Data: []byte("js")},
	}
}

func TestRolePreloadsFollowTheManifest(t *testing.T) {
	scripts, styles := rolePreloads(testAssets(), "pet")
	if want := []string{"/assets/petboot-B.js", "/assets/scheduler-C.js", "/assets/shared-D.js"}; !slices.Equal(scripts, want) {
		t.Errorf("scripts %v, want %v (each chunk once)", scripts, want)
	}
	if want := []string{"/assets/petboot-B.css", "/assets/shared-D.css"}; !slices.Equal(styles, want) {
		t.Errorf("styles %v, want %v", styles, want)
	}
	if s, _ := rolePreloads(testAssets(), "settings"); !slices.Equal(s, []string{"/assets/boot-E.js"}) {
		t.Errorf("settings preloads %v", s)
	}
	if s, c := rolePreloads(testAssets(), "bare"); s != nil || c != nil {
		t.Errorf("an unknown role preloads %v %v", s, c)
	}
	noManifest := testAssets()
	delete(noManifest, ".vite/manifest.json")
	if s, c := rolePreloads(noManifest, "pet"); s != nil || c != nil {
		t.Errorf("without a manifest: %v %v", s, c)
	}
}

func TestPageHandlerServesTheConfigInTheHead(t *testing.T) {
	cfg := PageConfig{ViewURL: `ws://127.0.0.1:9/view?token=t"<x>&role=pet&preset=p`, Role: "pet", Preset: "p", Lang: "ja"}
	next := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { io.WriteString(rw, "next "+r.URL.Path) })
	h := pageHandler(testAssets(), cfg, next)
	for _, p := range []string{"/", "/index.html"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", p, nil))
		body := rec.Body.String()
		if !strings.HasPrefix(body, `<!doctype html><html><head><meta name="yui-page" content="`) {
			t.Fatalf("%s: the meta tag is not first in the head: %s", p, body)
		}
		m := regexp.MustCompile(`<meta name="yui-page" content="([^"]*)">`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no meta tag: %s", p, body)
		}
		var got PageConfig
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil || got != cfg {
			t.Errorf("%s: config %+v (%v), want %+v", p, got, err, cfg)
		}
		for _, want := range []string{`<link rel="modulepreload" crossorigin href="/assets/petboot-B.js">`,
			`<link rel="stylesheet" crossorigin href="/assets/petboot-B.css">`, `<title>Yui</title>`, `src="/assets/index-A.js"`} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: no %s in %s", p, want, body)
			}
		}
		if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("%s: content type %q", p, ct)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/assets/index-A.js", nil))
	if rec.Body.String() != "next /assets/index-A.js" {
		t.Errorf("another path was not passed on: %q", rec.Body.String())
	}
}
