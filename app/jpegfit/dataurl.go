package jpegfit

import "yui/transport/dataurl"

// dataURL renders data as a data:image/<subtype>;base64 URL.
func dataURL(subtype string, data []byte) string { return dataurl.Encode("image/"+subtype, data) }

// dataURLLen is the length of the data URL of n payload bytes.
func dataURLLen(subtype string, n int) int { return dataurl.Len("image/"+subtype, n) }

// payloadFor is the largest payload whose data URL fits in urlBytes, or a
// negative number when not even the prefix fits.
func payloadFor(subtype string, urlBytes int) int {
	room := urlBytes - len(dataurl.Prefix("image/"+subtype))
	if room < 0 {
		return -1
	}
	return room / 4 * 3
}
