package playback

import "context"

// Synthesis ahead of playback: the next lines synthesized while one plays.

// prefetch starts synthesis for the sentence about to play and up to
// p.ahead more. Called with mu held.
func (p *Player) prefetch() {
	if p.muted {
		return
	}
	budget := p.ahead + 1
	for _, u := range p.queue {
		for _, it := range u.items[u.next:] {
			if budget == 0 {
				return
			}
			budget--
			if it.fut == nil && !it.started {
				it.fut = p.synthesize(p.voice, p.genCtx, it)
			}
		}
	}
}

// synthesize runs v.Synthesize for it on its own goroutine.
func (p *Player) synthesize(v Voice, parent context.Context, it *item) *future {
	ctx, cancel := context.WithCancel(parent)
	f := &future{done: make(chan struct{}), cancel: cancel}
	line := Line{TurnID: it.turnID, Text: it.speech, Cue: it.lineCue}
	go func() {
		defer close(f.done)
		f.clip, f.err = v.Synthesize(ctx, line)
		if f.err == nil && f.clip == nil {
			f.err = errNilClip
		}
	}()
	return f
}
