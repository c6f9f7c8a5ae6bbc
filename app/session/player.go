package session

import (
	"yui/app/playback"
)

// playerEvent is the player's OnEvent: it forwards to the actor, tagged
// with the interrupt generation it was delivered in.
func (s *Session) playerEvent(e playback.Event) {
	gen := s.pgen.Load()
	s.post(func() {
		if gen != s.pgen.Load() {
			return // delivered before an interrupt the actor has since made
		}
		s.onPlayer(e)
	})
}

// maxDeferredCues bounds the cues waiting for a thinking motion to end.
const maxDeferredCues = 64

// onPlayer turns a playback event into UI events.
func (s *Session) onPlayer(e playback.Event) {
	if e.Line != "" && (e.Kind == playback.SpeechStart || e.Kind == playback.SpeechEnd) {
		// A filler or failure line: its filler/failure_line event went
		// out when it was queued (the view's bubble kind); the voice
		// speaks it without speech_start/speech_end.
		return
	}
	switch e.Kind {
	case playback.SpeechStart:
		s.emit(SpeechStart{TurnID: e.TurnID, Text: e.Text, Muted: e.Muted})
	case playback.SpeechEnd:
		s.emit(SpeechEnd{TurnID: e.TurnID, Text: e.Text, Muted: e.Muted})
	case playback.CueFired:
		c := s.vocab.Resolve(e.Cue)
		if c.IsZero() {
			return
		}
		ev := Cue{TurnID: e.TurnID, Cue: c}
		if s.st.thinkingOn {
			// Another running turn's thinking motion plays: the cue lands
			// when that motion ends.
			s.st.deferred = append(s.st.deferred, ev)
			if len(s.st.deferred) > maxDeferredCues {
				// Only the last state matters when they land; keep the newest.
				s.st.deferred = append(s.st.deferred[:0], s.st.deferred[len(s.st.deferred)-maxDeferredCues:]...)
			}
			return
		}
		s.emit(ev)
	case playback.UtteranceEnd:
		// The latest client turn played to its end: nothing went wrong.
		if o, ok := s.st.origins[e.TurnID]; ok && o.sent() && s.isLatest(e.TurnID) {
			s.clearRecord()
		}
	case playback.Idle:
		if !s.st.thinkingOn {
			s.emit(Cue{Cue: neutralCue()})
		}
	}
}

// isLatest reports whether id is the client turn sent last.
func (s *Session) isLatest(id string) bool {
	return id == s.st.lastSent
}
