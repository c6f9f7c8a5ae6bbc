package session

import (
	"time"

	"yui/app/cue"
	"yui/app/playback"
)

// Client-side cues of the running state: the thinking face and motion,
// their end (neutral face, idle motion: a reply without an emotion cue is
// not spoken thinking), and the face easing back after playback.
func thinkingCue() cue.Cue { return cue.Cue{EmotionID: "thinking", MotionID: "thinking"} }
func idleCue() cue.Cue     { return cue.Cue{EmotionID: cue.FallbackEmotion, MotionID: cue.FallbackMotion} }
func neutralCue() cue.Cue  { return cue.Cue{EmotionID: cue.FallbackEmotion} }

// PlateThinking is the plate text while a turn runs.
const PlateThinking = "thinking"

// syncRunning emits the composer, plate and thinking-motion changes the
// outstanding turns imply: the composer is locked and the plate reads
// thinking while a client turn runs; the thinking motion plays while a
// running turn has had no render. When the motion ends, the cues that
// waited for it land.
func (s *Session) syncRunning() {
	locked, thinking := false, false
	for _, t := range s.st.turns {
		if t.running {
			locked = true
			if !t.rendered {
				thinking = true
			}
		}
	}
	if locked != s.st.composer {
		s.st.composer = locked
		s.emit(Composer{Locked: locked})
	}
	plate := ""
	if locked {
		plate = PlateThinking
	}
	if plate != s.st.plate {
		s.st.plate = plate
		s.emit(Plate{Text: plate})
	}
	if thinking == s.st.thinkingOn {
		return
	}
	s.st.thinkingOn = thinking
	if thinking {
		s.emit(Cue{Cue: thinkingCue()})
		return
	}
	s.emit(Cue{Cue: idleCue()})
	waiting := s.st.deferred
	s.st.deferred = nil
	for _, d := range waiting {
		s.emit(d)
	}
}

// armLater schedules the "later" filler of a turn still thinking.
func (s *Session) armLater(t *turn) {
	t.later = time.AfterFunc(LaterFillerAfter, func() {
		s.post(func() {
			if s.st.turns[t.id] != t || !t.running || t.rendered || t.later == nil {
				return
			}
			t.later = nil
			s.sayFiller(t, s.lines.Later)
		})
	})
}

// firstRender records a render or speech frame of turn id (t, nil for a
// closed turn) that plays: a barge-in mute ends on the first accepted
// reply of a turn the barge-in did not cut; the turn's thinking ends. It
// reports whether this is the turn's first reply frame: the caller then
// cuts the turn's filler lines with cutFillers once the frame is queued.
func (s *Session) firstRender(id string, t *turn) bool {
	if s.st.muted && !s.st.mutedCut[id] {
		s.st.muted = false
		s.st.mutedCut = nil
		s.player.SetMuted(false)
	}
	if t == nil || t.rendered {
		return false
	}
	t.rendered = true
	t.stopTimers()
	s.syncRunning()
	return true
}

// cutFillers ends the filler lines of turn id after its first reply frame
// is queued. Cut before, the player could find its queue empty in between
// and go idle: a neutral face between the thinking and the reply.
func (s *Session) cutFillers(id string, first bool) {
	if first {
		s.player.CutFillers(id)
	}
}

// sayFiller shows and speaks a filler line of t; the turn's first render
// or speech frame, its end, or a user action that stops speech cuts it.
func (s *Session) sayFiller(t *turn, text string) {
	s.emit(Filler{TurnID: t.id, Text: text})
	s.player.Say(t.id, text, playback.LineFiller)
}

// sayFailure shows and speaks a failure line of turn id. It plays after
// the speech already queued, like a reply.
func (s *Session) sayFailure(id, text string) {
	s.emit(FailureLine{TurnID: id, Text: text})
	s.player.Say(id, text, playback.LineFailure)
}
