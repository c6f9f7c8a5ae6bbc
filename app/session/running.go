package session

import (
	"time"

	"yui/app/cue"
)

// Client-side cues of the running state: the thinking motion, its end,
// and the face easing back after playback.
func thinkingCue() cue.Cue { return cue.Cue{EmotionID: "thinking", MotionID: "thinking"} }
func idleCue() cue.Cue     { return cue.Cue{MotionID: cue.FallbackMotion} }
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
		s.emit(Event{Kind: KindComposer, Locked: locked})
	}
	plate := ""
	if locked {
		plate = PlateThinking
	}
	if plate != s.st.plate {
		s.st.plate = plate
		s.emit(Event{Kind: KindPlate, Text: plate})
	}
	if thinking == s.st.thinkingOn {
		return
	}
	s.st.thinkingOn = thinking
	if thinking {
		s.emit(Event{Kind: KindCue, Cue: thinkingCue()})
		return
	}
	s.emit(Event{Kind: KindCue, Cue: idleCue()})
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
			s.emit(Event{Kind: KindFiller, TurnID: t.id, Text: s.lines.Later})
		})
	})
}

// firstRender records a render or speech frame of t that plays: its
// thinking ends, and a barge-in mute ends on the first accepted reply of a
// turn sent after it.
func (s *Session) firstRender(t *turn) {
	if t == nil {
		return
	}
	if s.st.muted && t.origin.sent() && t.ord >= s.st.muteBefore {
		s.st.muted = false
		s.player.SetMuted(false)
	}
	if t.rendered {
		return
	}
	t.rendered = true
	t.stopTimers()
	s.syncRunning()
}
