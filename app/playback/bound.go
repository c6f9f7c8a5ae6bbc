package playback

import "unicode/utf8"

// Queue bounds. A backend can send renders faster than they play; the
// queue keeps at most MaxQueued sentences not yet started (reply speech;
// the client's own lines are not counted), of at most MaxQueuedBytes of
// text, in at most maxUtterances utterances. Past a bound the oldest
// sentences not yet started are dropped — first those of turns
// Options.Expendable names (backend-started turns), then any — and the
// drop is logged (playback.dropped). An utterance that lost sentences
// sends no utterance_end: it did not play to its end.
//
// A frame whose own speech is over MaxQueuedBytes keeps only its newest
// MaxQueuedBytes (older segments keep their cues, not their speech) before
// it is split into sentences, so a flood costs no work on text that could
// not be kept.
const (
	DefaultMaxQueued      = 500
	DefaultMaxQueuedBytes = 64 << 10 // about an hour of speech
	maxUtterances         = 256
	// maxWaiting bounds the silent cues waiting on a boundary (newest kept).
	maxWaiting = 64
	// maxHeard bounds an utterance's text kept for repeat detection.
	maxHeard = 64 << 10
)

func (p *Player) maxQueued() int {
	if p.limitItems > 0 {
		return p.limitItems
	}
	return DefaultMaxQueued
}

func (p *Player) maxQueuedBytes() int {
	if p.limitBytes > 0 {
		return p.limitBytes
	}
	return DefaultMaxQueuedBytes
}

// fitFrame returns segs with at most maxQueuedBytes of speech, the newest:
// older segments lose their speech (their cues stay), the oldest segment
// kept may lose its head. Called with mu held.
func (p *Player) fitFrame(turnID string, segs []Segment) []Segment {
	total := 0
	for _, s := range segs {
		total += len(s.Speech)
	}
	budget := p.maxQueuedBytes()
	if total <= budget {
		return segs
	}
	out := make([]Segment, len(segs))
	copy(out, segs)
	for i := len(out) - 1; i >= 0; i-- {
		sp := out[i].Speech
		switch {
		case budget <= 0:
			out[i].Speech = ""
		case len(sp) > budget:
			cut := len(sp) - budget
			for cut < len(sp) && !utf8.RuneStart(sp[cut]) {
				cut++
			}
			out[i].Speech = sp[cut:]
		}
		budget -= len(sp)
	}
	p.log.Warn("playback.dropped", "turn_id", turnID, "bytes", total-p.maxQueuedBytes(), "reason", "frame_too_long",
		"backend_turn", p.expendable(turnID))
	return out
}

func itemBytes(it *item) int { return len(it.bubble) + len(it.speech) }

// firstPending is the index of u's first sentence that has not started
// and is not being prepared to play.
func (p *Player) firstPending(u *utterance) int {
	i := u.next
	if i < len(u.items) && (u.items[i] == p.current || u.items[i].started) {
		i++
	}
	return i
}

// noteAdded counts newly queued sentences and trims the queue when a
// bound may be passed. Called with mu held.
func (p *Player) noteAdded(items []*item) {
	p.pendHint += len(items)
	for _, it := range items {
		p.pendHintBytes += itemBytes(it)
	}
	if len(p.waiting) > maxWaiting {
		p.waiting = append(p.waiting[:0], p.waiting[len(p.waiting)-maxWaiting:]...)
	}
	if p.pendHint > p.maxQueued() || p.pendHintBytes > p.maxQueuedBytes() || len(p.queue) > maxUtterances {
		p.trim()
	}
}

// pending counts the reply sentences not yet started, and their bytes.
func (p *Player) pending() (n, bytes int) {
	for _, u := range p.queue {
		if u.line != "" {
			continue
		}
		for _, it := range u.items[p.firstPending(u):] {
			n++
			bytes += itemBytes(it)
		}
	}
	return n, bytes
}

// trim drops the oldest sentences not yet started until the queue is
// within its bounds: expendable turns' first, then any turn's. Called
// with mu held.
func (p *Player) trim() {
	n, bytes := p.pending()
	over := func() bool { return n > p.maxQueued() || bytes > p.maxQueuedBytes() }
	// One log line per trim: the turns that lost speech, newest last.
	var turns []string
	sentences, dropped, backend := 0, 0, 0
	defer func() {
		if sentences > 0 {
			p.log.Warn("playback.dropped", "reason", "queue_full", "sentences", sentences, "bytes", dropped,
				"backend_sentences", backend, "turns", len(turns), "turn_id", turns[len(turns)-1])
		}
	}()
	for _, anyTurn := range []bool{false, true} {
		for _, u := range p.queue {
			if !over() {
				break
			}
			if u.line != "" || (!anyTurn && !p.expendable(u.turnID)) {
				continue
			}
			from := p.firstPending(u)
			to := from
			for to < len(u.items) && over() {
				it := u.items[to]
				if it.fut != nil {
					it.fut.cancel()
				}
				n--
				bytes -= itemBytes(it)
				dropped += itemBytes(it)
				to++
			}
			if to > from {
				sentences += to - from
				if p.expendable(u.turnID) {
					backend += to - from
				}
				if len(turns) == 0 || turns[len(turns)-1] != u.turnID {
					turns = append(turns, u.turnID)
				}
				old := len(u.items)
				u.items = append(u.items[:from], u.items[to:]...)
				clear(u.items[len(u.items):old]) // let the dropped sentences go
				u.trimmed = true
			}
		}
	}
	p.trimUtterances()
	p.pendHint, p.pendHintBytes = p.pending()
}

// trimUtterances removes the oldest utterances with nothing started
// while the queue holds more than maxUtterances (expendable turns' first).
// Called with mu held.
func (p *Player) trimUtterances() {
	removed, lastTurn := 0, ""
	defer func() {
		if removed > 0 {
			p.log.Warn("playback.dropped", "reason", "too_many_utterances", "utterances", removed, "turn_id", lastTurn)
		}
	}()
	for _, anyTurn := range []bool{false, true} {
		if len(p.queue) <= maxUtterances {
			return
		}
		excess := len(p.queue) - maxUtterances
		kept := p.queue[:0]
		for i, u := range p.queue {
			removable := excess > 0 && u.line == "" && i > 0 && i < len(p.queue)-1 &&
				p.firstPending(u) == 0 && (anyTurn || p.expendable(u.turnID))
			if !removable {
				kept = append(kept, u)
				continue
			}
			excess--
			for _, it := range u.items {
				if it.fut != nil {
					it.fut.cancel()
				}
			}
			removed++
			lastTurn = u.turnID
		}
		clear(p.queue[len(kept):])
		p.queue = kept
	}
}

func (p *Player) expendable(turnID string) bool {
	return p.isExpendable != nil && p.isExpendable(turnID)
}
