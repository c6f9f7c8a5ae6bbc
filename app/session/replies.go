package session

import (
	"yui/app/clientctx"
	"yui/app/cue"
	"yui/app/playback"
	"yui/app/sentence"
	"yui/transport"
)

// Dropped is the dropped value of a log line for a stopped turn's frame.
const Dropped = "cut_turn"

// segments converts frame segments to playback segments.
func segments(in []transport.Segment) []playback.Segment {
	out := make([]playback.Segment, len(in))
	for i, sg := range in {
		cs := make([]cue.Cue, len(sg.Cues))
		for j, c := range sg.Cues {
			cs[j] = cue.Cue{EmotionID: c.EmotionID, MotionID: c.MotionID, EmotionText: c.EmotionText, Caption: c.Caption}
		}
		out[i] = playback.Segment{Cues: cs, Speech: sg.Speech}
	}
	return out
}

// hasSpeech reports whether any segment carries speech (not silence).
func hasSpeech(segs []transport.Segment) bool {
	for _, sg := range segs {
		if !sentence.IsSilent(sg.Speech) {
			return true
		}
	}
	return false
}

// onRender plays a render: after the speech already queued, in arrival
// order. A stopped turn's render is dropped (and abandons its streaming
// reasoning); a closed turn's or a backend turn's render plays.
func (s *Session) onRender(r transport.Render) {
	t := s.turnFor(r.TurnID, true)
	if t != nil && t.stopped {
		s.turnLog.Info(s.logName("render"), "source", r.Source, "turn_id", r.TurnID, "segments", len(r.Segments),
			"dropped", Dropped, "stopped_count", s.stoppedCount())
		s.abandonReasoning(r.TurnID)
		return
	}
	speech := hasSpeech(r.Segments)
	// speech: whether any speech of the frame plays (not silence, not a
	// repeat of what speech frames already queued); owed: whether reply
	// speech was still owed when the frame arrived.
	owed := s.player.Owed()
	first := s.firstRender(r.TurnID, t)
	if r.Reasoning != "" {
		s.renderReasoning(r.TurnID, r.Reasoning)
	}
	if t != nil && speech {
		t.spoke = true
	}
	played := s.player.Render(r.TurnID, segments(r.Segments))
	s.cutFillers(r.TurnID, first)
	s.turnLog.Info(s.logName("render"), "source", r.Source, "turn_id", r.TurnID, "segments", len(r.Segments),
		"speech", played > 0, "sentences", played, "owed", owed)
}

// onSpeech plays one streamed sentence in the turn's open utterance.
func (s *Session) onSpeech(sp transport.Speech) {
	t := s.turnFor(sp.TurnID, true)
	if t != nil && t.stopped {
		s.log.Info(s.logName("speech"), "turn_id", sp.TurnID, "segments", len(sp.Segments),
			"dropped", Dropped, "stopped_count", s.stoppedCount())
		return
	}
	s.log.Info(s.logName("speech"), "turn_id", sp.TurnID, "segments", len(sp.Segments))
	first := s.firstRender(sp.TurnID, t)
	if t != nil && hasSpeech(sp.Segments) {
		t.spoke = true
	}
	s.player.Speech(sp.TurnID, segments(sp.Segments))
	s.cutFillers(sp.TurnID, first)
}

// onTurnEnd forgets the turn and releases what it held: running state,
// its open utterance, a running tool in the pill, streaming reasoning. A
// turn that got an error frame ends failed here.
func (s *Session) onTurnEnd(te transport.TurnEnd) {
	t := s.st.turns[te.TurnID]
	if t == nil {
		s.log.Info(s.logName("turn_end"), "turn_id", te.TurnID, "held", false)
		return
	}
	s.log.Info(s.logName("turn_end"), "turn_id", te.TurnID)
	delete(s.st.turns, te.TurnID)
	s.st.closed.add(te.TurnID)
	t.stopTimers()
	t.running = false
	s.player.CutFillers(te.TurnID)
	s.player.EndUtterance(te.TurnID)
	s.emit(Event{Kind: KindTurnEnd, TurnID: te.TurnID})
	if te.Usage != nil && !t.stopped {
		s.emit(Event{Kind: KindUsage, TotalTokens: int64(te.Usage.TotalTokens), ContextWindow: s.opts.Preset.ContextWindow})
	}
	if p := s.st.pill.cur; p != nil && p.TurnID == te.TurnID && p.State == "running" {
		s.setPill(nil)
	}
	s.endReasoning(te.TurnID)
	switch {
	case t.stopped || !t.origin.sent():
	case t.errored:
		s.failTurn(t)
	case !t.spoke && s.isLatest(t.id) && !t.failureSpoken:
		s.clearRecord() // a complete turn with nothing to play
	}
	s.syncRunning()
}

// failTurn shows a turn that got an error frame as failed: the failure
// line, the message in the composer's error line (typed) or the pill
// (spoken), and a failed record.
func (s *Session) failTurn(t *turn) {
	if !t.failureSpoken {
		t.failureSpoken = true
		s.sayFailure(t.id, s.lines.Failed)
	}
	where := WhereComposer
	if t.origin == fromSpoken {
		where = WherePill
	}
	msg := t.errMsg
	if msg == "" {
		msg = s.lines.ErrorGeneric // the spec's "generic text without one"
	}
	s.emit(Event{Kind: KindErrorLine, TurnID: t.id, Text: msg, Where: where})
	s.recordFailed(t)
}

// recordFailed keeps a failed record for a client turn, once: a turn whose
// frame wait passed and that later gets its error frame is one failed
// record and one playback frame.
func (s *Session) recordFailed(t *turn) {
	if t.failedRecorded {
		return
	}
	t.failedRecorded = true
	s.record(clientctx.NewFailed(t.origin.label(), s.now(), t.id))
}

// onError keeps an error frame's message for the turn's turn_end. One for
// a stopped turn is dropped; one for a turn the client did not send shows
// nothing.
func (s *Session) onError(e transport.TurnError) {
	t := s.turnFor(e.TurnID, true)
	if t != nil && t.stopped {
		s.log.Info(s.logName("error"), "turn_id", e.TurnID, "dropped", Dropped, "stopped_count", s.stoppedCount())
		return
	}
	s.log.Info(s.logName("error"), "turn_id", e.TurnID, "message", e.Message)
	if t == nil || !t.origin.sent() {
		return
	}
	t.errored = true
	t.errMsg = OneLine(e.Message, ErrorLineMax)
}

// OneLine collapses a message to one line and cuts it to max code points.
func OneLine(msg string, max int) string {
	return clientctx.CutHead(clientctx.Sanitize(msg), max)
}
