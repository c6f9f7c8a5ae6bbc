package session

import (
	"cmp"
	"context"
	"slices"
	"time"

	"yui/app/clientctx"
)

// origin says who started a turn.
type origin int

const (
	fromTyped   origin = iota + 1 // the user typed it
	fromSpoken                    // the user spoke it
	fromClient                    // the client started it (proactive, schedule, character)
	fromBackend                   // the backend minted its id (any id this run did not mint)
)

// Trigger labels of the previous-turn record.
const (
	LabelTyped   = "user.text_submitted"
	LabelSpoken  = "user.speech_submitted"
	LabelClient  = "client.started"
	LabelBackend = "backend.started"
)

func (o origin) label() string {
	switch o {
	case fromTyped:
		return LabelTyped
	case fromSpoken:
		return LabelSpoken
	case fromClient:
		return LabelClient
	}
	return LabelBackend
}

// sent reports whether the client sent the turn.
func (o origin) sent() bool { return o != fromBackend }

// turn is one outstanding turn: sent by the client (from the turn frame
// to its turn_end) or started by the backend (from its first frame to its
// turn_end).
type turn struct {
	id     string
	origin origin
	ord    uint64 // client turns: 1, 2, … in send order
	seq    uint64 // every turn: 1, 2, … in the order it became outstanding

	running        bool // turn frame sent, no turn_end or wait end yet
	rendered       bool // a render or speech frame arrived
	stopped        bool // a user action stopped it; frames dropped until turn_end
	errored        bool // an error frame arrived
	errMsg         string
	failureSpoken  bool
	failedRecorded bool // its failed record was saved (one playback frame per record)
	spoke          bool // speech of the turn was queued
	toolFiller     bool

	later *time.Timer // the "later" filler
}

func (t *turn) stopTimers() {
	if t.later != nil {
		t.later.Stop()
		t.later = nil
	}
}

// turnFor returns the outstanding turn with id. An id the client did not
// mint and has not seen closed becomes an outstanding backend turn when
// create is set; a client id that is not outstanding (closed, or never
// sent) gives nil.
func (s *Session) turnFor(id string, create bool) *turn {
	if t := s.st.turns[id]; t != nil {
		return t
	}
	if !create || s.ids.IsClientMinted(id) || s.st.closed.has(id) {
		return nil
	}
	s.boundBackendTurns()
	s.st.turnSeq++
	t := &turn{id: id, origin: fromBackend, seq: s.st.turnSeq}
	s.st.turns[id] = t
	s.remember(id, fromBackend)
	return t
}

// Outstanding-turn bounds. A backend can start turns it never ends, and
// stopped turns wait for a turn_end that may never come; each is kept
// until then, so each kind is capped: past the cap the oldest is
// forgotten (turn_forgotten in the log) as if closed — its later frames
// play as a closed turn's do. The caps also keep the stop frame, which
// names every outstanding turn, far within its 256 KiB.
const (
	MaxBackendTurns = 32
	MaxStoppedTurns = 64
)

// boundBackendTurns makes room for one more backend turn.
func (s *Session) boundBackendTurns() {
	s.forgetOldest(MaxBackendTurns-1, "backend_turns", func(t *turn) bool { return t.origin == fromBackend && !t.stopped })
}

// boundStoppedTurns keeps at most MaxStoppedTurns stopped turns.
func (s *Session) boundStoppedTurns() {
	s.forgetOldest(MaxStoppedTurns, "stopped_turns", func(t *turn) bool { return t.stopped })
}

// forgetOldest forgets the oldest turns matching pred until at most keep
// of them are outstanding.
func (s *Session) forgetOldest(keep int, reason string, pred func(*turn) bool) {
	var match []*turn
	for _, t := range s.st.turns {
		if pred(t) {
			match = append(match, t)
		}
	}
	if len(match) <= keep {
		return
	}
	slices.SortFunc(match, func(a, b *turn) int { return cmp.Compare(a.seq, b.seq) })
	for _, t := range match[:len(match)-keep] {
		s.forgetTurn(t, reason)
	}
}

// forgetTurn drops an outstanding turn as its turn_end would, without
// the turn_end event: its frame wait, filler, open utterance, running
// tool and streaming reasoning end.
func (s *Session) forgetTurn(t *turn, reason string) {
	s.log.Warn("turn_forgotten", "turn_id", t.id, "reason", reason, "origin", t.origin.label())
	delete(s.st.turns, t.id)
	s.st.closed.add(t.id)
	t.stopTimers()
	t.running = false
	s.tr.ForgetTurn(t.id)
	s.player.CutFillers(t.id)
	s.player.EndUtterance(t.id)
	if p := s.st.pill.cur; p != nil && p.TurnID == t.id && p.State == "running" {
		s.setPill(nil)
	}
	s.endReasoning(t.id)
	s.syncRunning()
}

// remember keeps a turn's origin after it closed, for the previous-turn
// record of a late cut.
func (s *Session) remember(id string, o origin) {
	if s.st.origins == nil {
		s.st.origins = make(map[string]origin)
	}
	if _, ok := s.st.origins[id]; !ok {
		s.st.originOrder = append(s.st.originOrder, id)
		if len(s.st.originOrder) > closedMemory {
			delete(s.st.origins, s.st.originOrder[0])
			s.st.originOrder = s.st.originOrder[1:]
		}
	}
	s.st.origins[id] = o
}

// originOf returns what is known of a turn's origin.
func (s *Session) originOf(id string) origin {
	if o, ok := s.st.origins[id]; ok {
		return o
	}
	if s.ids.IsClientMinted(id) {
		return fromTyped
	}
	return fromBackend
}

// stoppedCount is how many stopped turns still wait for their turn_end.
func (s *Session) stoppedCount() int {
	n := 0
	for _, t := range s.st.turns {
		if t.stopped {
			n++
		}
	}
	return n
}

// record saves the previous-turn record and, for a failed record with a
// turn id saved while connected, sends the playback frame.
func (s *Session) record(r clientctx.Record) {
	if err := s.prev.Set(r); err != nil {
		s.log.Warn("previous_turn.save_failed", "err", err.Error())
	}
	if r.Outcome == clientctx.Failed && r.TurnID != "" && s.ready() && s.tr.Capabilities().PlaybackReports {
		if err := s.tr.ReportPlayback(context.Background(), r.TurnID); err != nil {
			s.log.Warn(s.logName("playback_not_sent"), "turn_id", r.TurnID, "err", err.Error())
		}
	}
}

// clearRecord forgets the previous-turn record (a turn went fine).
func (s *Session) clearRecord() {
	if _, ok := s.prev.Get(); !ok {
		return
	}
	if err := s.prev.Clear(); err != nil {
		s.log.Warn("previous_turn.clear_failed", "err", err.Error())
	}
}
