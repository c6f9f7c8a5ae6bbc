package playback

import "yui/app/sentence"

// LineKind says what a client line is. Reply speech (Speech, Render) has
// the zero kind.
type LineKind string

// Client line kinds.
const (
	// LineFiller is a thinking, "later" or tool filler: CutFillers drops it.
	LineFiller LineKind = "filler"
	// LineFailure is a failure line: it plays like reply speech.
	LineFailure LineKind = "failure"
)

// Say queues a line the client speaks on its own (a filler or a failure
// line) as a closed utterance of turnID, after everything queued. Like
// another turn's frame, it closes the open utterance first. Its
// speech_start and speech_end carry Line; it sends no utterance_end and
// no Cut, and it is not reply speech still owed (Owed), though Idle waits
// for it and its end is a boundary like any utterance's.
func (p *Player) Say(turnID, text string, kind LineKind) {
	if kind == "" {
		kind = LineFailure
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if u := p.openUtterance(); u != nil {
		u.closed = true
	}
	u := &utterance{turnID: turnID, line: kind}
	for _, raw := range sentence.Split(text) {
		bubble := sentence.BubbleText(raw)
		if bubble == "" {
			continue
		}
		u.items = append(u.items, &item{turnID: turnID, bubble: bubble, speech: sentence.SpeechText(raw), line: kind})
	}
	u.closed = true
	if len(u.items) == 0 {
		return
	}
	p.queue = append(p.queue, u)
	p.prefetch()
	p.signal()
}

// CutFillers drops the filler lines of turnID: queued ones never play,
// and the voice of a playing one stops at once (its speech_end still
// comes). Other speech is untouched.
func (p *Player) CutFillers(turnID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	kept := p.queue[:0]
	for _, u := range p.queue {
		if u.line != LineFiller || u.turnID != turnID {
			kept = append(kept, u)
			continue
		}
		cur := -1
		if p.current != nil && u.next < len(u.items) && u.items[u.next] == p.current {
			cur = u.next
		}
		for i, it := range u.items[u.next:] {
			if u.next+i == cur {
				continue
			}
			if it.fut != nil {
				it.fut.cancel()
			}
		}
		if cur < 0 {
			continue // nothing of it is playing: drop it whole
		}
		it := u.items[cur]
		u.items = u.items[:cur+1]
		if it.started {
			if p.playCancel != nil {
				p.playCancel()
			}
		} else {
			it.cut = true
			if it.fut != nil {
				it.fut.cancel()
			}
		}
		kept = append(kept, u)
	}
	clear(p.queue[len(kept):])
	p.queue = kept
	p.signal()
}

// isCut reports whether CutFillers dropped it before it started.
func (p *Player) isCut(it *item) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return it.cut
}
