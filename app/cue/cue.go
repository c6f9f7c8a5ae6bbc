package cue

// Cue is one generate_express argument object. Every field is optional.
type Cue struct {
	EmotionID   string `json:"emotion_id,omitempty"`
	MotionID    string `json:"motion_id,omitempty"`
	EmotionText string `json:"emotion_text,omitempty"`
	Caption     string `json:"caption,omitempty"`
}

// IsZero reports whether the cue sets no field.
func (c Cue) IsZero() bool { return c == Cue{} }

// Merge returns c with every non-empty field of later laid over it.
func (c Cue) Merge(later Cue) Cue {
	if later.EmotionID != "" {
		c.EmotionID = later.EmotionID
	}
	if later.MotionID != "" {
		c.MotionID = later.MotionID
	}
	if later.EmotionText != "" {
		c.EmotionText = later.EmotionText
	}
	if later.Caption != "" {
		c.Caption = later.Caption
	}
	return c
}

// MergeAll merges the cues of one segment in order.
func MergeAll(cues []Cue) Cue {
	var out Cue
	for _, c := range cues {
		out = out.Merge(c)
	}
	return out
}
