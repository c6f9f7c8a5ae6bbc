package cue

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// TextMode is the vocabulary's emotion_text_mode.
type TextMode string

// The two emotion_text modes of the push spec.
const (
	TextFree TextMode = "free" // emotion_text is free text
	TextEnum TextMode = "enum" // emotion_text is a key of emotion_text_map
)

// Fallback ids for unknown cue values.
const (
	FallbackEmotion = "neutral"
	FallbackMotion  = "idle"
)

// Vocabulary is what the current character can render.
type Vocabulary struct {
	EmotionIDs      []string          `json:"emotion_ids"`
	MotionIDs       []string          `json:"motion_ids"` // agent-selectable motions only
	EmotionTextMode TextMode          `json:"emotion_text_mode"`
	EmotionTextMap  map[string]string `json:"emotion_text_map"`
	// ClientMotionIDs are motions the client plays on its own (idle,
	// thinking, dragging, ...). Never sent, never selectable by a cue.
	ClientMotionIDs []string `json:"-"`
}

// Default returns the default vocabulary of client-notes §4, in free mode
// with an empty tag table. Each call returns fresh slices and map.
func Default() Vocabulary {
	return Vocabulary{
		EmotionIDs: []string{"neutral", "happy", "angry", "sad", "relaxed",
			"surprised", "thinking", "curious", "sleepy", "embarrassed"},
		MotionIDs: []string{"happy", "laugh", "embarrassed", "sheepish", "calm",
			"sleeping", "idle_lively", "dance", "sulk"},
		ClientMotionIDs: []string{"idle", "thinking", "drag", "peek", "window_sit", "walk"},
		EmotionTextMode: TextFree,
		EmotionTextMap:  map[string]string{},
	}
}

// WithTextMap returns v using the TTS engine's tag table m: enum mode when
// m has entries, free mode otherwise. m is copied.
func (v Vocabulary) WithTextMap(m map[string]string) Vocabulary {
	v.EmotionTextMap = maps.Clone(m)
	if v.EmotionTextMap == nil {
		v.EmotionTextMap = map[string]string{}
	}
	if len(m) > 0 {
		v.EmotionTextMode = TextEnum
	} else {
		v.EmotionTextMode = TextFree
	}
	return v
}

// HasEmotion reports whether id is a listed emotion.
func (v Vocabulary) HasEmotion(id string) bool {
	return slices.Contains(v.EmotionIDs, strings.TrimSpace(id))
}

// HasMotion reports whether id is an agent-selectable motion.
func (v Vocabulary) HasMotion(id string) bool {
	return slices.Contains(v.MotionIDs, strings.TrimSpace(id))
}

// Resolve maps c onto the vocabulary with the fallbacks described in the
// package documentation.
func (v Vocabulary) Resolve(c Cue) Cue {
	if id := strings.TrimSpace(c.EmotionID); id != "" {
		if v.HasEmotion(id) {
			c.EmotionID = id
		} else {
			c.EmotionID = FallbackEmotion
		}
	} else {
		c.EmotionID = ""
	}
	if id := strings.TrimSpace(c.MotionID); id != "" {
		if v.HasMotion(id) {
			c.MotionID = id
		} else {
			c.MotionID = FallbackMotion
		}
	} else {
		c.MotionID = ""
	}
	if v.EmotionTextMode == TextEnum {
		if _, ok := v.EmotionTextMap[c.EmotionText]; !ok {
			c.EmotionText = ""
		}
	}
	return c
}

// VoiceTag returns what the TTS engine should get for emotion_text: in enum
// mode the mapped value of a known tag, in free mode the text itself.
func (v Vocabulary) VoiceTag(emotionText string) (string, bool) {
	if emotionText == "" {
		return "", false
	}
	if v.EmotionTextMode == TextEnum {
		tag, ok := v.EmotionTextMap[emotionText]
		return tag, ok
	}
	return emotionText, true
}

// Equal reports whether v and o send the same vocabulary frame. Use it to
// decide when a vocabulary frame must be sent again.
func (v Vocabulary) Equal(o Vocabulary) bool {
	return slices.Equal(v.EmotionIDs, o.EmotionIDs) &&
		slices.Equal(v.MotionIDs, o.MotionIDs) &&
		v.EmotionTextMode == o.EmotionTextMode &&
		maps.Equal(v.EmotionTextMap, o.EmotionTextMap)
}

// MarshalJSON encodes the wire object, with empty lists and map in place of
// null and the mode defaulting to free.
func (v Vocabulary) MarshalJSON() ([]byte, error) {
	type wire Vocabulary
	w := wire(v)
	if w.EmotionIDs == nil {
		w.EmotionIDs = []string{}
	}
	if w.MotionIDs == nil {
		w.MotionIDs = []string{}
	}
	if w.EmotionTextMap == nil {
		w.EmotionTextMap = map[string]string{}
	}
	if w.EmotionTextMode == "" {
		w.EmotionTextMode = TextFree
	}
	return json.Marshal(w)
}
