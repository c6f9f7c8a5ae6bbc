package shell

import (
	"bytes"
	"encoding/json"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// The window's page starts without a round trip (issue 24, "windows
// connect as soon as their process starts"): the index.html the window's
// asset server hands its web view carries
//
//   - the page's config (PageConfig, what Bridge.Config returns) in a
//     <meta name="yui-page"> tag, so the page opens its view socket as
//     soon as its first script runs, without waiting on the Wails
//     bindings (frontend/src/host.ts pageConfig);
//   - <link rel="modulepreload"> for its role's chunk and the chunks
//     that chunk imports, and <link rel="stylesheet"> for its CSS, from
//     the Vite manifest (frontend/dist/.vite/manifest.json): WebKit
//     fetches and compiles them while the entry script loads instead of
//     after it.
//
// The page served by the core's view server (browsers, tests) has
// neither and asks as before.

// pageMeta is the meta tag's name (frontend/src/host.ts reads it).
const pageMeta = "yui-page"

// manifestPath is Vite's build manifest in the page assets.
const manifestPath = ".vite/manifest.json"

// roleEntries are the source module each role's page boots from
// (frontend/src/main.ts imports them by role).
var roleEntries = map[string]string{
	"pet":      "src/petboot.ts",
	"settings": "src/settings/boot.ts",
	"message":  "src/messageboot.ts",
}

// manifestChunk is one entry of Vite's manifest.
type manifestChunk struct {
	File    string   `json:"file"`
	CSS     []string `json:"css"`
	Imports []string `json:"imports"`
}

// rolePreloads are the scripts and style sheets role's page will load
// once its entry has run, as the manifest in assets names them: the
// role's chunk and every chunk it imports statically (each once; not the
// entry, which the page loads anyway), and their CSS. Without a manifest, or for a role it does not know: none.
func rolePreloads(assets fs.FS, role string) (scripts, styles []string) {
	entry, ok := roleEntries[role]
	if !ok || assets == nil {
		return nil, nil
	}
	b, err := fs.ReadFile(assets, manifestPath)
	if err != nil {
		return nil, nil
	}
	var m map[string]manifestChunk
	if json.Unmarshal(b, &m) != nil {
		return nil, nil
	}
	seen := map[string]bool{}
	var walk func(key string)
	walk = func(key string) {
		c, ok := m[key]
		if !ok || seen[key] || c.File == "" || key == "index.html" { // the entry: loading already
			return
		}
		seen[key] = true
		scripts = append(scripts, "/"+c.File)
		for _, s := range c.CSS {
			styles = append(styles, "/"+s)
		}
		for _, imp := range c.Imports {
			walk(imp)
		}
	}
	walk(entry)
	return scripts, styles
}

// withPageHead returns index with the config meta tag and the preload
// links inserted at the start of its <head> (index unchanged when it has
// no <head>).
func withPageHead(index []byte, cfg PageConfig, scripts, styles []string) []byte {
	i := bytes.Index(index, []byte("<head>"))
	if i < 0 {
		return index
	}
	i += len("<head>")
	js, err := json.Marshal(cfg)
	if err != nil {
		return index
	}
	var head strings.Builder
	head.WriteString(`<meta name="` + pageMeta + `" content="` + html.EscapeString(string(js)) + `">`)
	for _, s := range scripts {
		head.WriteString(`<link rel="modulepreload" crossorigin href="` + html.EscapeString(s) + `">`)
	}
	for _, s := range styles {
		head.WriteString(`<link rel="stylesheet" crossorigin href="` + html.EscapeString(s) + `">`)
	}
	out := make([]byte, 0, len(index)+head.Len())
	out = append(out, index[:i]...)
	out = append(out, head.String()...)
	return append(out, index[i:]...)
}

// pageHandler serves the window's index.html (for "/" and
// "/index.html") with the page's config and its role's preloads in its
// head, read and made once; everything else goes to next.
func pageHandler(assets fs.FS, cfg PageConfig, next http.Handler) http.Handler {
	var page []byte
	if assets != nil {
		if index, err := fs.ReadFile(assets, "index.html"); err == nil {
			scripts, styles := rolePreloads(assets, cfg.Role)
			page = withPageHead(index, cfg, scripts, styles)
		}
	}
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		p := path.Clean("/" + r.URL.Path)
		if page == nil || (p != "/" && p != "/index.html") {
			next.ServeHTTP(rw, r)
			return
		}
		rw.Header().Set("Content-Type", "text/html; charset=utf-8")
		rw.Write(page)
	})
}
