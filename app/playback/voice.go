package playback

import (
	"context"

	"yui/app/cue"
)

// Line is one sentence handed to a Voice.
type Line struct {
	TurnID string
	Text   string  // the text to speak: emoji stripped, links reduced
	Cue    cue.Cue // the merged cue of the sentence's segment (emotion_text, caption)
}

// Voice turns lines into playable clips. Synthesize may be called for
// several lines before any of them plays, possibly concurrently; it should
// return early with ctx's error when ctx is cancelled and tie any resources
// of the clip to ctx, since a dropped clip is never played.
type Voice interface {
	Synthesize(ctx context.Context, line Line) (Clip, error)
}

// Clip is synthesised audio. Play blocks until the clip finished or ctx is
// cancelled and is called at most once.
type Clip interface {
	Play(ctx context.Context) error
}
