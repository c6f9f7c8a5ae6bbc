package playback

import (
	"context"
	"errors"
)

var errNilClip = errors.New("playback: voice returned no clip")

// run is the player's goroutine: it does one step at a time and sleeps
// when there is nothing to do.
func (p *Player) run() {
	defer close(p.done)
	for {
		select {
		case <-p.stop:
			return
		default:
		}
		if p.step() {
			continue
		}
		select {
		case <-p.wake:
		case <-p.stop:
			return
		}
	}
}

// step does one unit of work and reports whether there may be more.
func (p *Player) step() bool {
	p.emitMu.Lock()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.emitMu.Unlock()
		return false
	}
	if evs := p.nextEvents(); evs != nil {
		p.mu.Unlock()
		p.fire(evs...)
		p.emitMu.Unlock()
		return true
	}
	if len(p.queue) == 0 || !p.queue[0].owed() {
		p.mu.Unlock()
		p.emitMu.Unlock()
		return false
	}
	u := p.queue[0]
	it := u.items[u.next]
	p.current = it
	if it.leads && !it.cueFired {
		it.cueFired = true
		p.mu.Unlock()
		p.fire(cueEvent(it.turnID, it.cue))
		p.emitMu.Unlock()
		return true
	}
	gen, genCtx := p.gen, p.genCtx
	if !p.muted {
		p.prefetch()
	}
	fut := it.fut
	muted := p.muted
	p.mu.Unlock()
	p.emitMu.Unlock()
	return p.play(u, it, gen, genCtx, fut, muted)
}

// nextEvents returns the events due now that involve no playback: cues due
// at once, a boundary, or the idle event. Called with mu held.
func (p *Player) nextEvents() []Event {
	if len(p.due) > 0 {
		evs := make([]Event, len(p.due))
		for i, sc := range p.due {
			evs[i] = cueEvent(sc.turnID, sc.cue)
		}
		p.due = nil
		return evs
	}
	if len(p.queue) == 0 {
		if !p.idle {
			p.idle = true
			return []Event{{Kind: Idle}}
		}
		return nil
	}
	u := p.queue[0]
	if !u.done() {
		return nil
	}
	p.queue = p.queue[1:]
	evs := []Event{}
	if len(u.items) > 0 && u.line == "" && !u.trimmed {
		evs = append(evs, Event{Kind: UtteranceEnd, TurnID: u.turnID, Text: u.spokenText()})
	}
	for _, sc := range p.waiting {
		evs = append(evs, cueEvent(sc.turnID, sc.cue))
	}
	p.waiting = nil
	return evs
}

// play waits for the sentence's clip, plays it and reports it. It returns
// true so the loop looks for more work.
func (p *Player) play(u *utterance, it *item, gen uint64, genCtx context.Context, fut *future, muted bool) bool {
	var clip Clip
	var voiceErr error
	if !muted && fut != nil {
	wait:
		for {
			select {
			case <-fut.done:
				break wait
			case <-genCtx.Done():
				return true
			case <-p.stop:
				return false
			case <-p.wake:
				// The main loop steps again after play returns, so the
				// wake-up is not lost by taking it here.
				if p.isCut(it) {
					break wait
				}
				if p.Muted() {
					fut.cancel()
					muted = true
					break wait
				}
			}
		}
		if !muted && !p.isCut(it) {
			if fut.err != nil {
				if p.Muted() {
					muted = true
				} else if genCtx.Err() == nil {
					voiceErr = fut.err
					p.log.Warn("playback.voice_failed", "turn_id", it.turnID, "stage", "synthesize", "err", fut.err)
				} else {
					return true
				}
			} else if p.Muted() {
				fut.cancel()
				muted = true
			} else {
				clip = fut.clip
			}
		}
	}
	shownOnly := clip == nil
	if shownOnly && !p.isCut(it) {
		c, err := p.shown.Synthesize(genCtx, Line{TurnID: it.turnID, Text: it.speech, Cue: it.lineCue})
		if err == nil {
			clip = c
		}
	}

	p.emitMu.Lock()
	p.mu.Lock()
	if gen != p.gen || p.closed {
		p.mu.Unlock()
		p.emitMu.Unlock()
		return true
	}
	if it.cut {
		// CutFillers dropped the line before it started: skip it.
		p.current, p.playCancel = nil, nil
		u.next++
		p.mu.Unlock()
		p.emitMu.Unlock()
		return true
	}
	it.started = true
	p.idle = false
	playCtx, cancel := context.WithCancel(genCtx)
	defer cancel()
	p.playCancel = cancel
	p.mu.Unlock()
	p.fire(Event{Kind: SpeechStart, TurnID: it.turnID, Text: it.bubble, Muted: muted, Line: it.line})
	p.emitMu.Unlock()

	if clip != nil {
		if err := clip.Play(playCtx); err != nil && playCtx.Err() == nil && voiceErr == nil {
			voiceErr = err
			p.log.Warn("playback.voice_failed", "turn_id", it.turnID, "stage", "play", "err", err)
		}
	}

	p.emitMu.Lock()
	p.mu.Lock()
	if gen != p.gen || p.closed {
		p.mu.Unlock()
		p.emitMu.Unlock()
		return true
	}
	p.playCancel = nil
	p.current = nil
	u.next++
	p.prefetch()
	p.mu.Unlock()
	p.fire(Event{Kind: SpeechEnd, TurnID: it.turnID, Text: it.bubble, Muted: muted, Err: voiceErr, Line: it.line})
	p.emitMu.Unlock()
	return true
}
