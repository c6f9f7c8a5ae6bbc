package lookfolder

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodSVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 200 240" inkscape:version="1.2">
  <metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></metadata>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
  <inkscape:perspective id="p"/>
  <circle cx="100" cy="96" r="64" fill="url(#g)" style="stroke: url( '#g' )"/>
  <use xlink:href="#g"/>
  <text x="1" y="2">a &amp; b</text>
</svg>`

// writeLook writes a look folder with every emotion's SVG (override
// replaces some files' contents; "" removes the file).
func writeLook(t *testing.T, cfg, id, manifest string, override map[string]string) {
	t.Helper()
	dir := filepath.Join(cfg, Dir, id)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{Manifest: manifest}
	for _, e := range Emotions {
		files[e+".svg"] = goodSVG
	}
	for k, v := range override {
		files[k] = v
	}
	for name, body := range files {
		if body == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSanitizeKeepsShapesAndDropsEditorMetadata(t *testing.T) {
	out, err := Sanitize([]byte(goodSVG))
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 240">`, `<circle cx="100" cy="96" r="64" fill="url(#g)"`, `<use href="#g"></use>`, `a &amp; b`, `<stop offset="0" stop-color="#fff">`} {
		if !strings.Contains(s, want) {
			t.Errorf("sanitised SVG lacks %q:\n%s", want, s)
		}
	}
	for _, gone := range []string{"inkscape", "metadata", "rdf", "<!--", "<?xml", "xlink"} {
		if strings.Contains(s, gone) {
			t.Errorf("sanitised SVG still has %q:\n%s", gone, s)
		}
	}
	// What comes out passes again unchanged.
	again, err := Sanitize(out)
	if err != nil || string(again) != s {
		t.Fatalf("sanitising twice changed it (%v):\n%s\n%s", err, s, again)
	}
}

func TestSanitizeRefusesWhatCouldRunOrLoad(t *testing.T) {
	wrap := func(body string) string {
		return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">` + "\n" + body + `</svg>`
	}
	for _, c := range []struct{ name, doc, want string }{
		{"script", wrap(`<script>alert(1)</script>`), "<script> is not allowed"},
		{"foreignObject", wrap(`<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>`), "<foreignObject> is not allowed"},
		{"image", wrap(`<image href="https://example.com/x.png"/>`), "<image> is not allowed"},
		{"link", wrap(`<a href="https://example.com"><rect/></a>`), "<a> is not allowed"},
		{"style element", wrap(`<style>@import url(https://x)</style>`), "<style> is not allowed"},
		{"event handler", wrap(`<rect onclick="alert(1)"/>`), "event handlers"},
		{"external use", wrap(`<use xlink:href="https://example.com/a.svg#x"/>`), "only point inside"},
		{"external url()", wrap(`<rect fill="url(https://example.com/p.svg#x)"/>`), "not allowed"},
		{"url without #", wrap(`<rect fill="url(other.svg#x)"/>`), "url() may only"},
		{"data url in style", wrap(`<rect style="fill: url(data:image/png;base64,AAAA)"/>`), "not allowed"},
		{"javascript href", wrap(`<use href="javascript:alert(1)"/>`), "only point inside"},
		{"doctype", `<!DOCTYPE svg [<!ENTITY x "y">]>` + wrap(``), "DOCTYPE"},
		{"processing instruction", wrap(`<?xml-stylesheet href="x.css"?>`), "processing instruction"},
		{"html root", `<html xmlns="http://www.w3.org/1999/xhtml"/>`, "must be an <svg>"},
		{"no namespace", `<svg viewBox="0 0 1 1"/>`, "must be an <svg>"},
		{"not xml", `<svg xmlns="http://www.w3.org/2000/svg"><g></svg>`, "not well-formed"},
		{"animation", wrap(`<set attributeName="href" to="https://x"/>`), "<set> is not allowed"},
		// CSS escapes can spell what the checks look for (issue 23).
		{"escaped url(", wrap(`<rect style="fill: \75 rl(//evil.example/x.svg#a)"/>`), "CSS escapes"},
		{"escape inside url", wrap(`<rect fill="u\72l(//evil.example/x.svg#a)"/>`), "CSS escapes"},
		{"escaped scheme", wrap(`<rect style="fill: url(#a) , u\rl(ht\tps://evil.example/x)"/>`), "CSS escapes"},
		{"escape as a character reference", wrap(`<rect style="fill: &#92;75rl(//evil.example/x)"/>`), "CSS escapes"},
		{"escaped newline", wrap(`<rect style="fill: ur\
l(//evil.example/x)"/>`), "CSS escapes"},
		// CSS functions that load a URL from a string.
		{"image-set string", wrap(`<rect style="fill: image-set('//evil.example/x.png' 1x)"/>`), "image-set("},
		{"webkit image-set", wrap(`<rect style="cursor: -webkit-image-set(&quot;//evil.example/c.png&quot; 1x), auto"/>`), "image-set("},
		{"image-set upper case", wrap(`<rect style="fill: IMAGE-SET('//evil.example/x.png')"/>`), "image-set("},
		{"image()", wrap(`<rect style="fill: image('//evil.example/x.png')"/>`), "image("},
		{"cross-fade()", wrap(`<rect style="fill: cross-fade('//evil.example/a.png', red)"/>`), "cross-fade("},
	} {
		_, err := Sanitize([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want one saying %q", c.name, err, c.want)
		}
	}
	// The line is named.
	_, err := Sanitize([]byte(wrap("<rect/>\n<script/>")))
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("the error does not name line 3: %v", err)
	}
}

func TestScanValidatesFoldersAndNamesTheFile(t *testing.T) {
	cfg := t.TempDir()
	if looks, err := Scan(cfg, nil); err != nil || len(looks) != 0 {
		t.Fatalf("no looks folder: %v, %v", looks, err)
	}
	writeLook(t, cfg, "good", `{"name":"Good one"}`, nil)
	writeLook(t, cfg, "bad-svg", `{"name":"Bad"}`, map[string]string{"happy.svg": `<svg xmlns="http://www.w3.org/2000/svg"><script>x</script></svg>`})
	writeLook(t, cfg, "missing", `{"name":"Missing"}`, map[string]string{"sleepy.svg": ""})
	writeLook(t, cfg, "no-name", `{"title":"x"}`, nil)
	writeLook(t, cfg, "broken-json", `{"name":`, nil)
	writeLook(t, cfg, "yui", `{"name":"Mine"}`, nil)
	writeLook(t, cfg, "Upper", `{"name":"Upper"}`, nil)
	writeLook(t, cfg, "huge", `{"name":"Huge"}`, map[string]string{"sad.svg": `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat(" ", MaxSVGBytes) + `</svg>`})
	looks, err := Scan(cfg, []string{"yui", "mika", "sora"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Look{}
	for _, l := range looks {
		got[l.ID] = l
	}
	if g := got["good"]; g.Err != nil || g.Name != "Good one" || len(g.Art) != len(Emotions) {
		t.Fatalf("good look: %+v", g)
	}
	for id, want := range map[string]string{
		"bad-svg":     "looks/bad-svg/happy.svg: line 1: <script> is not allowed",
		"missing":     "looks/missing/sleepy.svg: missing",
		"no-name":     `looks/no-name/look.json: "name" must be`,
		"broken-json": "looks/broken-json/look.json: not valid JSON",
		"yui":         "built-in look",
		"Upper":       "looks/Upper: the folder name",
		"huge":        "looks/huge/sad.svg: too large",
	} {
		l, ok := got[id]
		if !ok {
			t.Errorf("%s: not listed", id)
			continue
		}
		if l.Err == nil || !strings.Contains(l.Err.Error(), want) {
			t.Errorf("%s: err = %v, want one containing %q", id, l.Err, want)
		}
		if l.Art != nil {
			t.Errorf("%s: a refused look has art", id)
		}
	}
}
