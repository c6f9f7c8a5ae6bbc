package transport

import "slices"

// Vocabulary is what the client renders right now (push hello.vocabulary;
// the enums of a request transport's generate_express tool).
type Vocabulary struct {
	EmotionIDs      []string          `json:"emotion_ids"`
	MotionIDs       []string          `json:"motion_ids"`
	EmotionTextMode string            `json:"emotion_text_mode"`
	EmotionTextMap  map[string]string `json:"emotion_text_map"`
}

// Normalized returns v with nil lists and map replaced by empty ones and a
// blank mode read as "free", so the wire carries [] and {} rather than null.
func (v Vocabulary) Normalized() Vocabulary {
	if v.EmotionIDs == nil {
		v.EmotionIDs = []string{}
	}
	if v.MotionIDs == nil {
		v.MotionIDs = []string{}
	}
	if v.EmotionTextMap == nil {
		v.EmotionTextMap = map[string]string{}
	}
	if v.EmotionTextMode == "" {
		v.EmotionTextMode = "free"
	}
	return v
}

// Equal reports whether v and o render the same set (nil and empty lists are equal).
func (v Vocabulary) Equal(o Vocabulary) bool {
	a, b := v.Normalized(), o.Normalized()
	if a.EmotionTextMode != b.EmotionTextMode || !slices.Equal(a.EmotionIDs, b.EmotionIDs) ||
		!slices.Equal(a.MotionIDs, b.MotionIDs) || len(a.EmotionTextMap) != len(b.EmotionTextMap) {
		return false
	}
	for k, x := range a.EmotionTextMap {
		if y, ok := b.EmotionTextMap[k]; !ok || x != y {
			return false
		}
	}
	return true
}
