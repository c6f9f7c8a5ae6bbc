package demobackend

import (
	"slices"
	"sort"
	"strings"

	"yui/transport/push"
)

// line is one scripted sentence and the expression it wants.
type line struct {
	text    string
	emotion string // wanted emotion id
	motion  string // wanted motion id, optional
	tone    string // wanted voice tone (emotion_text), optional
}

// Defaults of client-notes §4, used when the client stated no vocabulary.
var (
	defaultEmotions = []string{"neutral", "happy", "angry", "sad", "relaxed",
		"surprised", "thinking", "curious", "sleepy", "embarrassed"}
	defaultMotions = []string{"happy", "laugh", "embarrassed", "sheepish", "calm",
		"sleeping", "idle_lively", "dance", "sulk"}
)

// nearEmotion lists what to try when the character lacks a wanted emotion.
var nearEmotion = map[string][]string{
	"curious":     {"thinking", "surprised", "happy"},
	"thinking":    {"curious", "neutral"},
	"relaxed":     {"happy", "neutral"},
	"surprised":   {"curious", "happy"},
	"embarrassed": {"sad", "surprised"},
	"sleepy":      {"relaxed", "neutral"},
	"sad":         {"embarrassed", "neutral"},
	"angry":       {"sad", "neutral"},
	"happy":       {"relaxed", "neutral"},
}

// palette is the vocabulary a turn picks cues from.
type palette struct {
	emotions []string
	motions  []string
	enum     bool
	textMap  map[string]string
}

// paletteOf reads the client's vocabulary; a vocabulary stating neither
// emotions nor motions gives the client-notes defaults in free mode.
func paletteOf(v push.Vocabulary) palette {
	if len(v.EmotionIDs) == 0 && len(v.MotionIDs) == 0 {
		return palette{emotions: defaultEmotions, motions: defaultMotions}
	}
	return palette{emotions: v.EmotionIDs, motions: v.MotionIDs, enum: v.EmotionTextMode == "enum", textMap: v.EmotionTextMap}
}

// cue maps a line's wishes onto the palette: an emotion the character lacks
// becomes a near one, then neutral, then nothing; a motion it lacks is left
// out; the tone is free text in free mode and a tag of the table in enum
// mode (left out when no tag maps to it).
func (p palette) cue(l line) push.Cue {
	var c push.Cue
	if l.emotion != "" {
		for _, e := range append(append([]string{l.emotion}, nearEmotion[l.emotion]...), "neutral") {
			if slices.Contains(p.emotions, e) {
				c.EmotionID = e
				break
			}
		}
	}
	if l.motion != "" && slices.Contains(p.motions, l.motion) {
		c.MotionID = l.motion
	}
	if l.tone != "" {
		c.EmotionText = p.toneTag(l.tone)
	}
	return c
}

func (p palette) toneTag(tone string) string {
	if !p.enum {
		return tone
	}
	tags := make([]string, 0, len(p.textMap))
	for tag := range p.textMap {
		tags = append(tags, tag)
	}
	sort.Strings(tags)
	for _, tag := range tags {
		if strings.EqualFold(p.textMap[tag], tone) {
			return tag
		}
	}
	return ""
}

// segment turns a line into a render/speech segment.
func (p palette) segment(l line) push.Segment {
	s := push.Segment{Speech: l.text}
	if c := p.cue(l); c != (push.Cue{}) {
		s.Cues = []push.Cue{c}
	}
	return s
}
