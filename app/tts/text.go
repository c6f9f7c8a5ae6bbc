package tts

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	// **bold**, __bold__, *em*, _em_, ~~strike~~ and `code`: the marks go,
	// the words stay. An underscore inside a word (snake_case) stays.
	emphasis   = regexp.MustCompile("(\\*\\*|__|~~|`+)")
	singleStar = regexp.MustCompile(`(^|\s)\*(\S[^*]*?)\*`)
	singleUnd  = regexp.MustCompile(`(^|\s)_(\S[^_]*?)_(\s|$|[.,!?;:])`)
	// Line-leading markdown: headings, quotes, bullets.
	leading = regexp.MustCompile(`^\s*(#{1,6}\s+|>\s*|[-*+]\s+)`)
)

// Speakable returns text as a synthesiser should read it: markdown
// emphasis, code marks and line-leading heading, quote and bullet marks
// dropped, whitespace runs collapsed. It returns "" when nothing in text
// can be pronounced (no letter or digit), so "…" is not sent to an
// engine. The caller has already stripped emoji and reduced links
// (sentence.SpeechText).
func Speakable(text string) string {
	s := leading.ReplaceAllString(text, "")
	s = emphasis.ReplaceAllString(s, "")
	s = singleStar.ReplaceAllString(s, "$1$2")
	s = singleUnd.ReplaceAllString(s, "$1$2$3")
	s = strings.Join(strings.Fields(s), " ")
	if strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) < 0 {
		return ""
	}
	return s
}
