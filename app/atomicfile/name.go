package atomicfile

// SafeName keeps [A-Za-z0-9_-] and percent-encodes every other byte, so any
// id (a preset id, a name) maps to one plain file name with no path
// separators and no dots.
func SafeName(s string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}
