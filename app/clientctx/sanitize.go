package clientctx

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

const (
	openTag  = "<client_context>"
	closeTag = "</client_context>"
)

// tagLike matches the block's tags and their near misses once the text is
// NFKC-normalised (full-width ＜／client_context＞ becomes ASCII): any case,
// spaces around the slash and the name, a space, hyphen or no separator
// for the underscore, and a stray self-closing slash.
var tagLike = regexp.MustCompile(`(?i)<\s*/?\s*client[\s_-]*context\s*/?\s*>`)

// Sanitize makes a sampled value safe to quote inside the block: it is
// NFKC-normalised, invalid UTF-8 becomes U+FFFD, control, bidi-control and
// invisible format characters are dropped, every tag-like <client_context>
// or </client_context> is removed (repeatedly, so removal cannot form a new
// one), whitespace runs collapse to one space and the result is trimmed.
func Sanitize(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = norm.NFKC.String(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsControl(r) || invisible(r) {
			return -1
		}
		return r
	}, s)
	for {
		next := tagLike.ReplaceAllLiteralString(s, "")
		if next == s {
			break
		}
		s = next
	}
	return strings.Join(strings.Fields(s), " ")
}

// invisible reports the format characters that change how text reads or
// hide inside a word without showing: bidi controls (U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C), zero-width space, word joiner and
// invisible operators, soft hyphen and the byte-order mark. Zero-width
// joiners and variation selectors stay: emoji need them.
func invisible(r rune) bool {
	switch {
	case unicode.Is(unicode.Bidi_Control, r):
		return true
	case r == '\u200b', r == '\ufeff', r == '\u00ad', r >= '\u2060' && r <= '\u2064':
		return true
	}
	return false
}
