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
			if next, _ := utf8.DecodeRuneInString(text[j:]); unicode.IsSpace(next) || isSpacelessScript(next) {
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

// isASCIITerminator: terminators that end a sentence only when whitespace,
// the end of the text or a letter of a script written without spaces
// follows. The ellipses (… ⋯ ‥) are here: in CJK text …… is a pause that
// may sit inside a sentence, so it ends one only before a space or before
// CJK text.
func isASCIITerminator(r rune) bool {
	switch r {
	case '.', '!', '?', '…', '⋯', '‥', '‼', '⁇', '⁈', '⁉':
		return true
	}
	return false
}

// isCJKTerminator: full-width terminators that end a sentence at once.
func isCJKTerminator(r rune) bool {
	switch r {
	case '。', '！', '？', '．', '｡', '︒', '﹒', '﹗', '﹖':
		return true
	}
	return false
}

// isSpacelessScript reports letters of scripts that are written without
// spaces between sentences: Han, Hiragana, Katakana, Hangul (Korean is
// spaced between words but often not after a terminator in chat text),
// and the CJK opening brackets that start a quotation.
func isSpacelessScript(r rune) bool {
	if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
		return true
	}
	switch r {
	case '「', '『', '（', '【', '〈', '《', '〔', '〖':
		return true
	}
	return false
}

func isCloser(r rune) bool {
	switch r {
	case '"', '\'', ')', ']', '}', '”', '’', '」', '』', '）', '】', '〉', '》', '»',
		'〕', '〗', '〙', '〛', '｣', '〞', '〟', '］', '｝':
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
