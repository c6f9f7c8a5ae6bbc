package lookfolder

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

const (
	svgNS   = "http://www.w3.org/2000/svg"
	xlinkNS = "http://www.w3.org/1999/xlink"
)

// allowedElements are the SVG elements a look may use: shapes, groups,
// gradients, clipping and masking, text. Anything else in the SVG
// namespace (script, foreignObject, image, a, style, animation elements,
// filters that can load images) is refused.
var allowedElements = map[string]bool{
	"svg": true, "g": true, "defs": true, "title": true, "desc": true, "symbol": true, "use": true,
	"path": true, "rect": true, "circle": true, "ellipse": true, "line": true, "polyline": true, "polygon": true,
	"linearGradient": true, "radialGradient": true, "stop": true, "clipPath": true, "mask": true, "pattern": true,
	"text": true, "tspan": true,
}

// dropped are elements left out silently with their content: editor
// metadata.
var dropped = map[string]bool{"metadata": true}

// Sanitize checks one SVG document and returns it re-serialised from the
// whitelist: the root is <svg> in the SVG namespace; elements are those of
// allowedElements; attributes have no namespace (xlink:href becomes href),
// are no event handler (on…), and refer only inside the document (href
// "#id", url(#id)); no DOCTYPE, entity or processing instruction other
// than the XML declaration. Elements and attributes of other namespaces
// (editors' metadata) and comments are dropped. Errors name the line.
func Sanitize(src []byte) ([]byte, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	d.Strict = true
	var z sanitizer
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		if err := z.token(line, tok); err != nil {
			return nil, err
		}
	}
	if !z.rootSeen {
		return nil, errors.New("no <svg> element")
	}
	return z.out.Bytes(), nil
}

// sanitizer is Sanitize's state between tokens.
type sanitizer struct {
	out      bytes.Buffer
	depth    int  // open elements written
	skip     int  // > 0 while inside a dropped element
	rootSeen bool // the <svg> root has started
}

// at is an error on the given line of the document.
func at(line int, format string, a ...any) error {
	return fmt.Errorf("line %d: "+format, append([]any{line}, a...)...)
}

// token writes (or drops, or refuses) one token read on line.
func (z *sanitizer) token(line int, tok xml.Token) error {
	switch t := tok.(type) {
	case xml.StartElement:
		return z.start(line, t)
	case xml.EndElement:
		if z.skip > 0 {
			z.skip--
			return nil
		}
		z.depth--
		z.out.WriteString("</" + t.Name.Local + ">")
	case xml.CharData:
		if z.skip > 0 || z.depth == 0 {
			if z.depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return at(line, "text outside the <svg> element")
			}
			return nil
		}
		xml.EscapeText(&z.out, t)
	case xml.Comment:
	case xml.ProcInst:
		if t.Target != "xml" || z.rootSeen {
			return at(line, "processing instruction <?%s?> is not allowed", t.Target)
		}
	case xml.Directive:
		return at(line, "<!%s> is not allowed (no DOCTYPE or entity declarations)", firstWord(t))
	}
	return nil
}

// start handles an element's start: the root's check, dropped and
// refused elements, then the element with its whitelisted attributes.
func (z *sanitizer) start(line int, t xml.StartElement) error {
	if z.skip > 0 {
		z.skip++
		return nil
	}
	if !z.rootSeen {
		if t.Name.Space != svgNS || t.Name.Local != "svg" {
			return at(line, "the document must be an <svg> element in the SVG namespace (xmlns=%q)", svgNS)
		}
		z.rootSeen = true
	} else if z.depth == 0 {
		return at(line, "content after the <svg> element")
	}
	if t.Name.Space != svgNS {
		if t.Name.Space == "" || strings.Contains(t.Name.Space, "w3.org/1999/xhtml") {
			return at(line, "<%s> is foreign content (only SVG elements are drawn)", t.Name.Local)
		}
		z.skip = 1 // an editor's element
		return nil
	}
	if dropped[t.Name.Local] {
		z.skip = 1
		return nil
	}
	if !allowedElements[t.Name.Local] {
		return at(line, "<%s> is not allowed in a look (no scripts, images, links, styles, animation or foreign content)", t.Name.Local)
	}
	z.out.WriteByte('<')
	z.out.WriteString(t.Name.Local)
	if z.depth == 0 {
		z.out.WriteString(` xmlns="` + svgNS + `"`)
	}
	for _, a := range t.Attr {
		if err := z.attr(line, t.Name.Local, a); err != nil {
			return err
		}
	}
	z.out.WriteByte('>')
	z.depth++
	return nil
}

// attr writes one attribute of element el, or drops or refuses it.
func (z *sanitizer) attr(line int, el string, a xml.Attr) error {
	name, ok, err := attrName(a)
	if err != nil {
		return at(line, "<%s %s>: %v", el, a.Name.Local, err)
	}
	if !ok {
		return nil
	}
	if err := checkValue(name, a.Value); err != nil {
		return at(line, "<%s %s>: %v", el, name, err)
	}
	z.out.WriteByte(' ')
	z.out.WriteString(name)
	z.out.WriteString(`="`)
	xml.EscapeText(&z.out, []byte(a.Value))
	z.out.WriteByte('"')
	return nil
}

// attrName is the name an attribute is written with; ok false drops it (a
// namespace declaration, an editor's attribute).
func attrName(a xml.Attr) (string, bool, error) {
	switch a.Name.Space {
	case "":
		if a.Name.Local == "xmlns" {
			return "", false, nil
		}
	case "xmlns":
		return "", false, nil
	case xlinkNS:
		if a.Name.Local != "href" {
			return "", false, nil
		}
		return "href", true, nil
	case "http://www.w3.org/XML/1998/namespace":
		return "", false, nil // xml:space and friends
	default:
		if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
			return "", false, fmt.Errorf("event handlers are not allowed")
		}
		return "", false, nil // an editor's attribute
	}
	if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
		return "", false, fmt.Errorf("event handlers are not allowed")
	}
	return a.Name.Local, true, nil
}

// checkValue refuses references outside the document. Values are read
// as CSS may read them (a presentation attribute or a style): a backslash
// is refused outright, since a CSS escape can spell url( or a scheme the
// checks below would not see (u\72l(//…), \75 rl(…)); so are the CSS
// functions that load a URL from a string (image-set('//…'), image(),
// cross-fade(), src()) and element().
func checkValue(name, v string) error {
	lv := strings.ToLower(v)
	if name == "href" {
		if !strings.HasPrefix(v, "#") {
			return fmt.Errorf("links may only point inside the document (#id), not %q", v)
		}
		return nil
	}
	if strings.ContainsRune(v, '\\') {
		return errors.New(`CSS escapes (\) are not allowed: they can spell a reference outside the document`)
	}
	for _, bad := range []string{"javascript:", "data:", "http:", "https:", "file:", "@import", "expression(", "image-set(", "image(", "cross-fade(", "src(", "element("} {
		if strings.Contains(lv, bad) {
			return fmt.Errorf("%q is not allowed (no references outside the document)", bad)
		}
	}
	rest := lv
	for {
		i := strings.Index(rest, "url(")
		if i < 0 {
			return nil
		}
		rest = strings.TrimLeft(rest[i+4:], " \t\n'\"")
		if !strings.HasPrefix(rest, "#") {
			return errors.New("url() may only point inside the document (url(#id))")
		}
	}
}

func firstWord(d xml.Directive) string {
	f := strings.Fields(string(d))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
