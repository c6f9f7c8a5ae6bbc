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
// cancelled and is called at most once. A clip may return a little before
// its sound ends, so that the next clip's sound starts as this one's ends
// (a stream takes a moment to be heard); its Voice is then a Husher.
type Clip interface {
	Play(ctx context.Context) error
}

// Husher is a Voice whose clips' sound may outlast their Play. The player
// calls Hush when it drops what plays (Interrupt, Close), after cancelling
// the clip playing: every sound still heard stops at once. Hush may be
// called from any goroutine, also while a clip plays.
type Husher interface {
	Hush()
}
