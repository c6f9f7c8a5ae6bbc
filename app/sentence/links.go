package sentence

import "strings"

// Link is one markdown link (or image) found in a text.
type Link struct {
	Label string // the text between the brackets (the alt text of an image)
	URL   string // the destination, without an optional "title"
	Image bool   // written ![alt](url)
	Start int    // byte offset of the link's first byte in the text
	End   int    // byte offset just past the closing parenthesis
}

// Links lists the complete markdown links of text in order.
func Links(text string) []Link {
	var out []Link
	for i := 0; i < len(text); {
		if l, ok := parseLink(text, i); ok {
			out = append(out, l)
			i = l.End
			continue
		}
		i++
	}
	return out
}

// ReduceLinks replaces every markdown link with its label.
func ReduceLinks(text string) string {
	links := Links(text)
	if len(links) == 0 {
		return text
	}
	var b strings.Builder
	prev := 0
	for _, l := range links {
		b.WriteString(text[prev:l.Start])
		b.WriteString(l.Label)
		prev = l.End
	}
	b.WriteString(text[prev:])
	return b.String()
}

// linkAt reports whether a complete link starts at i and where it ends.
func linkAt(s string, i int) (int, bool) {
	if s[i] != '[' && s[i] != '!' {
		return 0, false
	}
	l, ok := parseLink(s, i)
	return l.End, ok
}

// parseLink reads [label](dest) or ![alt](dest) starting at i. Labels may
// nest balanced brackets, destinations balanced parentheses; neither may
// span a line break. The label must not be empty.
func parseLink(s string, i int) (Link, bool) {
	l := Link{Start: i}
	if strings.HasPrefix(s[i:], "![") {
		l.Image = true
		i++
	}
	if i >= len(s) || s[i] != '[' {
		return Link{}, false
	}
	labelStart := i + 1
	depth := 0
	j := labelStart
	for ; j < len(s); j++ {
		c := s[j]
		if c == '\n' || c == '\r' {
			return Link{}, false
		}
		if c == '\\' && j+1 < len(s) {
			j++
			continue
		}
		if c == '[' {
			depth++
		} else if c == ']' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	if j >= len(s) || j == labelStart || j+1 >= len(s) || s[j+1] != '(' {
		return Link{}, false
	}
	l.Label = s[labelStart:j]
	destStart := j + 2
	depth = 0
	k := destStart
	for ; k < len(s); k++ {
		c := s[k]
		if c == '\n' || c == '\r' {
			return Link{}, false
		}
		if c == '(' {
			depth++
		} else if c == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
	}
	if k >= len(s) {
		return Link{}, false
	}
	dest := strings.TrimSpace(s[destStart:k])
	if sp := strings.IndexAny(dest, " \t"); sp >= 0 {
		dest = dest[:sp] // drop an optional "title"
	}
	l.URL = strings.Trim(dest, "<>")
	l.End = k + 1
	return l, true
}
