package sentence

import (
	"strings"
	"unicode/utf8"
)

// StripEmoji removes decorative emoji as the package documentation says.
func StripEmoji(text string) string {
	var b strings.Builder
	removed := false
	prevEmoji := false
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && w == 1:
			b.WriteByte(text[i]) // keep invalid bytes untouched
			prevEmoji = false
		case isEmoji(r):
			removed, prevEmoji = true, true
		case isInvisibleEmojiPart(r):
			removed = true
		case r == '\u200d' && (prevEmoji || nextIsEmoji(text[i+w:])):
			removed = true
		default:
			b.WriteRune(r)
			prevEmoji = false
		}
		i += w
	}
	if !removed {
		return text
	}
	return tidySpaces(b.String())
}

func nextIsEmoji(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return isEmoji(r)
}

// tidySpaces collapses runs of spaces and tabs and trims every line.
func tidySpaces(s string) string {
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		lines[i] = strings.Join(strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' }), " ")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// isInvisibleEmojiPart: variation selectors, the combining keycap, tags.
func isInvisibleEmojiPart(r rune) bool {
	return r == '\ufe0e' || r == '\ufe0f' || r == '\u20e3' || (r >= 0xE0020 && r <= 0xE007F)
}

// isEmoji reports pictographic emoji code points. Text symbols that double
// as emoji (©, ®, ™, arrows, digits, #, *) are not included.
func isEmoji(r rune) bool {
	switch {
	case r >= 0x1F000 && r <= 0x1FAFF: // mahjong, cards, enclosed, pictographs, emoticons, transport, flags, skin tones, supplemental
		return true
	case r >= 0x1FC00 && r <= 0x1FFFD: // reserved pictographic
		return true
	case r >= 0x2600 && r <= 0x27BF: // misc symbols, dingbats
		return true
	case r == 0x231A || r == 0x231B || r == 0x2328 || r == 0x23CF,
		r >= 0x23E9 && r <= 0x23F3, r >= 0x23F8 && r <= 0x23FA:
		return true
	case r >= 0x2B05 && r <= 0x2B07, r == 0x2B1B, r == 0x2B1C, r == 0x2B50, r == 0x2B55:
		return true
	case r == 0x3030, r == 0x303D, r == 0x3297, r == 0x3299:
		return true
	case r == 0x203C, r == 0x2049, r == 0x25AA, r == 0x25AB, r == 0x25B6, r == 0x25C0,
		r >= 0x25FB && r <= 0x25FE:
		return true
	}
	return false
}
