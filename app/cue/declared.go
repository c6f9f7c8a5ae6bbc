package cue

import (
	"encoding/json"
	"errors"
	"io/fs"
)

// FromPages reads the renderer's declaration, vocabulary.json in the built
// pages: what the character can draw is what hello.vocabulary says.
// Without pages (a build without them) it is Default; a missing or
// unreadable file gives Default and an error saying which.
func FromPages(pages fs.FS) (Vocabulary, error) {
	if pages == nil {
		return Default(), nil
	}
	b, err := fs.ReadFile(pages, "vocabulary.json")
	if err != nil {
		return Default(), errors.New("no vocabulary.json in the pages")
	}
	var decl struct {
		EmotionIDs      []string `json:"emotion_ids"`
		MotionIDs       []string `json:"motion_ids"`
		ClientMotionIDs []string `json:"client_motion_ids"`
	}
	if err := json.Unmarshal(b, &decl); err != nil || len(decl.EmotionIDs) == 0 {
		return Default(), errors.New("vocabulary.json unreadable")
	}
	v := Default()
	v.EmotionIDs, v.MotionIDs = decl.EmotionIDs, decl.MotionIDs
	if decl.ClientMotionIDs != nil {
		v.ClientMotionIDs = decl.ClientMotionIDs
	}
	return v, nil
}
