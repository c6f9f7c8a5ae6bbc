package clientctx

import (
	"strings"
	"unicode"
)

const (
	openTag  = "<client_context>"
	closeTag = "</client_context>"
)

// Sanitize makes a sampled value safe to quote inside the block.
func Sanitize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsControl(r) || r == '\u200b' || r == '\ufeff' {
			return -1
		}
		return r
	}, s)
	for {
		next := removeFold(removeFold(s, openTag), closeTag)
		if next == s {
			break
		}
		s = next
	}
	return strings.Join(strings.Fields(s), " ")
}

// removeFold removes every ASCII case-insensitive occurrence of tag.
func removeFold(s, tag string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if len(s)-i >= len(tag) && strings.EqualFold(s[i:i+len(tag)], tag) {
			i += len(tag)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}
