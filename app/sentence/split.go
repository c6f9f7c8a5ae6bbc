package sentence

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Split cuts text into trimmed, non-empty sentences.
func Split(text string) []string {
	var out []string
	emit := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	start, i := 0, 0
	for i < len(text) {
		if end, ok := linkAt(text, i); ok {
			i = end
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case isLineBreak(r):
			emit(text[start:i])
			i += w
			start = i
		case isCJKTerminator(r):
			j := skipClosers(text, skipTerminators(text, i+w))
			emit(text[start:j])
			start, i = j, j
		case isASCIITerminator(r):
			j := skipClosers(text, skipTerminators(text, i+w))
			if j == len(text) {
				i = j
				break
			}
			if next, _ := utf8.DecodeRuneInString(text[j:]); unicode.IsSpace(next) {
				emit(text[start:j])
				start = j
			}
			i = j
		default:
			i += w
		}
	}
	emit(text[start:])
	return out
}

func isLineBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == '\u2028' || r == '\u2029'
}

func isASCIITerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '…'
}

func isCJKTerminator(r rune) bool {
	return r == '。' || r == '！' || r == '？'
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '”', '’', '」', '』', '）', '】', '〉', '》', '»':
		return true
	}
	return false
}

// skipTerminators returns the offset after the run of terminators at i.
func skipTerminators(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isASCIITerminator(r) && !isCJKTerminator(r) {
			break
		}
		i += w
	}
	return i
}

// skipClosers returns the offset after the closing quotes/brackets at i.
func skipClosers(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isCloser(r) {
			break
		}
		i += w
	}
	return i
}
