package demobackend

import (
	"context"
	"strings"
	"time"

	"yui/transport/push"
)

// run is one turn being played. Its frames go out only while it is the
// chat's active turn; halt (stop, interruption, Close) silences it for good.
type run struct {
	b      *Backend
	ch     *chat
	id     string
	text   string
	images int // how many images came with the turn
	seq    int // the turn's number in its conversation
	pal    palette
	w      phrasebook // her lines in the turn's language
	ctx    context.Context
	cancel context.CancelFunc

	gen       uint64 // the conversation the turn belongs to
	stubborn  bool   // ignores stop
	halted    bool   // guarded by Backend.mu
	reasoning strings.Builder
	spoken    []push.Segment // speech frames sent, for an echoing render
	outChars  int
}

// halt silences the run and cancels its work. Needs Backend.mu.
func (r *run) halt() {
	r.halted = true
	r.cancel()
}

// emit sends f under the run's turn unless it was halted.
func (r *run) emit(f push.Frame) bool {
	r.b.mu.Lock()
	defer r.b.mu.Unlock()
	if r.halted {
		return false
	}
	r.b.sendLocked(r.ch.id, f)
	return true
}

// pause waits d (scaled); false when the run was halted or the Backend closed.
func (r *run) pause(d time.Duration) bool {
	t := time.NewTimer(r.b.cfg.scaled(d))
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.ctx.Done():
		return false
	}
}

// think streams reasoning deltas, one per step.
func (r *run) think(step time.Duration, deltas ...string) bool {
	for _, d := range deltas {
		if !r.pause(step) {
			return false
		}
		r.reasoning.WriteString(d)
		if !r.emit(push.Reasoning{TurnID: r.id, Delta: d}) {
			return false
		}
	}
	return true
}

// note streams one reasoning delta at once.
func (r *run) note(delta string) bool {
	r.reasoning.WriteString(delta)
	return r.emit(push.Reasoning{TurnID: r.id, Delta: delta})
}

// say streams lines as speech frames, one sentence per frame, a step apart.
func (r *run) say(step time.Duration, lines ...line) bool {
	for _, l := range lines {
		if !r.pause(step) {
			return false
		}
		seg := r.pal.segment(l)
		r.outChars += len(l.text)
		if !r.emit(push.Speech{TurnID: r.id, Segments: []push.Segment{seg}}) {
			return false
		}
		r.spoken = append(r.spoken, seg)
	}
	return true
}

// toolStatus sends a tool_status for the turn.
func (r *run) toolStatus(state, toolID string) bool {
	return r.emit(push.ToolStatus{TurnID: r.id, State: state, ToolID: toolID})
}

// closeWith sends the closing render: the given segments (echoing the
// streamed ones first when echo is set) with the whole reasoning.
func (r *run) closeWith(echo bool, segs ...push.Segment) bool {
	var all []push.Segment
	if echo {
		all = append(all, r.spoken...)
	}
	all = append(all, segs...)
	for _, s := range segs {
		r.outChars += len(s.Speech)
	}
	return r.emit(push.Render{TurnID: r.id, Segments: all, Reasoning: r.reasoning.String()})
}

// finish sends the turn_end with usage (and those of the turns this one
// interrupted) unless the run was halted.
func (r *run) finish() {
	r.b.mu.Lock()
	defer r.b.mu.Unlock()
	if r.halted || r.ch.active != r {
		return
	}
	r.b.endActiveLocked(r.ch, r.usage())
}

// usage is deterministic: the context grows with the conversation.
func (r *run) usage() *push.Usage {
	in := 1200 + 150*r.seq + len(r.text)/4 + len(r.reasoning.String())/4
	out := 20 + r.outChars/4
	return &push.Usage{InputTokens: float64(in), OutputTokens: float64(out), TotalTokens: float64(in + out)}
}
