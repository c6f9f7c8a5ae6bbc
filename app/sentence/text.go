package sentence

import "strings"

// BubbleText is the text the bubble shows: emoji stripped, markdown kept.
func BubbleText(s string) string { return StripEmoji(s) }

// SpeechText is the text a Voice speaks: emoji stripped, links reduced to
// their labels, whitespace runs collapsed to one space.
func SpeechText(s string) string {
	return strings.Join(strings.Fields(ReduceLinks(StripEmoji(s))), " ")
}
