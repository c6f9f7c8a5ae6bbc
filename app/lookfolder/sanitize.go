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

// errRefused marks content a look may not have.
var errRefused = errors.New("refused")

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
	var out bytes.Buffer
	depth, skip := 0, 0 // skip > 0 while inside a dropped element
	rootSeen := false
	for {
		line, _ := d.InputPos()
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("not well-formed XML: %w", err)
		}
		at := func(format string, a ...any) error {
			return fmt.Errorf("line %d: "+format, append([]any{line}, a...)...)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if skip > 0 {
				skip++
				continue
			}
			if !rootSeen {
				if t.Name.Space != svgNS || t.Name.Local != "svg" {
					return nil, at("the document must be an <svg> element in the SVG namespace (xmlns=%q)", svgNS)
				}
				rootSeen = true
			} else if depth == 0 {
				return nil, at("content after the <svg> element")
			}
			if t.Name.Space != svgNS {
				if t.Name.Space == "" || strings.Contains(t.Name.Space, "w3.org/1999/xhtml") {
					return nil, at("<%s> is foreign content (only SVG elements are drawn)", t.Name.Local)
				}
				skip = 1 // an editor's element
				continue
			}
			if dropped[t.Name.Local] {
				skip = 1
				continue
			}
			if !allowedElements[t.Name.Local] {
				return nil, at("<%s> is not allowed in a look (no scripts, images, links, styles, animation or foreign content)", t.Name.Local)
			}
			out.WriteByte('<')
			out.WriteString(t.Name.Local)
			if depth == 0 {
				out.WriteString(` xmlns="` + svgNS + `"`)
			}
			for _, a := range t.Attr {
				name, ok, err := attrName(a)
				if err != nil {
					return nil, at("<%s %s>: %v", t.Name.Local, a.Name.Local, err)
				}
				if !ok {
					continue
				}
				if err := checkValue(name, a.Value); err != nil {
					return nil, at("<%s %s>: %v", t.Name.Local, name, err)
				}
				out.WriteByte(' ')
				out.WriteString(name)
				out.WriteString(`="`)
				xml.EscapeText(&out, []byte(a.Value))
				out.WriteByte('"')
			}
			out.WriteByte('>')
			depth++
		case xml.EndElement:
			if skip > 0 {
				skip--
				continue
			}
			depth--
			out.WriteString("</" + t.Name.Local + ">")
		case xml.CharData:
			if skip > 0 || depth == 0 {
				if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
					return nil, at("text outside the <svg> element")
				}
				continue
			}
			xml.EscapeText(&out, t)
		case xml.Comment:
		case xml.ProcInst:
			if t.Target != "xml" || rootSeen {
				return nil, at("processing instruction <?%s?> is not allowed", t.Target)
			}
		case xml.Directive:
			return nil, at("<!%s> is not allowed (no DOCTYPE or entity declarations)", firstWord(t))
		}
	}
	if !rootSeen {
		return nil, errors.New("no <svg> element")
	}
	return out.Bytes(), nil
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
