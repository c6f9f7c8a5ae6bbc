package core

import (
	"encoding/json"
	"io/fs"
	"log/slog"

	"yui/app/cue"
)

// loadVocabulary reads the renderer's declaration, vocabulary.json in the
// built pages: what the character can draw is what hello.vocabulary says.
// Without the file (a build without pages) it falls back to client-notes
// §4's defaults and logs that.
func loadVocabulary(pages fs.FS, lg *slog.Logger) cue.Vocabulary {
	if pages == nil {
		return cue.Default()
	}
	b, err := fs.ReadFile(pages, "vocabulary.json")
	if err != nil {
		lg.Warn("vocabulary_default", "reason", "no vocabulary.json in the pages")
		return cue.Default()
	}
	var decl struct {
		EmotionIDs      []string `json:"emotion_ids"`
		MotionIDs       []string `json:"motion_ids"`
		ClientMotionIDs []string `json:"client_motion_ids"`
	}
	if err := json.Unmarshal(b, &decl); err != nil || len(decl.EmotionIDs) == 0 {
		lg.Warn("vocabulary_default", "reason", "vocabulary.json unreadable")
		return cue.Default()
	}
	v := cue.Default()
	v.EmotionIDs, v.MotionIDs = decl.EmotionIDs, decl.MotionIDs
	if decl.ClientMotionIDs != nil {
		v.ClientMotionIDs = decl.ClientMotionIDs
	}
	return v
}
