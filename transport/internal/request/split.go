package request

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// completeFrom returns how much of text is whole sentences: end is up to
// and including the last sentence end (ASCII .!?… runs and closing quotes
// or brackets followed by whitespace; CJK 。！？ at once; a newline
// always). The player cuts those sentences again by the same rules
// (app/sentence); this only decides when they are done.
//
// text grows as it streams: the scan starts at from, the resume point an
// earlier call on a prefix of text returned (0 at first), so each byte of
// a reply is scanned about once however small its deltas (issue 23: the
// whole unfinished sentence was scanned again for every delta). end is 0
// when the scanned part has no sentence end; resume is where the next
// scan of a longer text starts: the start of a .!?… run whose end the
// text does not show yet, else the end of text.
func completeFrom(text string, from int) (end, resume int) {
	resume = len(text)
	for i := from; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\n':
			end = i + w
			i += w
		case r == '。' || r == '！' || r == '？':
			j := skipClosers(text, i+w)
			end, i = j, j
		case r == '.' || r == '!' || r == '?' || r == '…':
			j := i + w
			for j < len(text) {
				r2, w2 := utf8.DecodeRuneInString(text[j:])
				if r2 != '.' && r2 != '!' && r2 != '?' && r2 != '…' {
					break
				}
				j += w2
			}
			j = skipClosers(text, j)
			if j < len(text) {
				if next, _ := utf8.DecodeRuneInString(text[j:]); unicode.IsSpace(next) {
					end = j
				}
			} else {
				resume = i // what follows the run decides: scan it again then
			}
			i = j
		default:
			i += w
		}
	}
	return end, resume
}

func skipClosers(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !strings.ContainsRune(`"')]}”’」』）】`, r) {
			return i
		}
		i += w
	}
	return i
}
