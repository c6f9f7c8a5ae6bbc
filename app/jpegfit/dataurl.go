package jpegfit

import "encoding/base64"

// dataURLPrefix is what precedes the base64 payload of a data URL.
func dataURLPrefix(subtype string) string {
	return "data:image/" + subtype + ";base64,"
}

// dataURL renders data as a data:image/<subtype>;base64 URL.
func dataURL(subtype string, data []byte) string {
	prefix := dataURLPrefix(subtype)
	out := make([]byte, len(prefix)+base64.StdEncoding.EncodedLen(len(data)))
	copy(out, prefix)
	base64.StdEncoding.Encode(out[len(prefix):], data)
	return string(out)
}

// dataURLLen is the length of the data URL of n payload bytes.
func dataURLLen(subtype string, n int) int {
	return len(dataURLPrefix(subtype)) + base64.StdEncoding.EncodedLen(n)
}

// payloadFor is the largest payload whose data URL fits in urlBytes, or a
// negative number when not even the prefix fits.
func payloadFor(subtype string, urlBytes int) int {
	room := urlBytes - len(dataURLPrefix(subtype))
	if room < 0 {
		return -1
	}
	return room / 4 * 3
}
