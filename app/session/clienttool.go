package session

// ClientToolState shows the state of a call of a tool the client runs
// itself (browser: spec rule 6) on the status pill: "running", then
// "done" or "failed" (held PillHold, then cleared, as a backend's). A
// call of a turn the client sent shows the tool phrase beside it; a
// stopped turn's call shows nothing.
func (s *Session) ClientToolState(turnID, tool, state string) {
	s.post(func() {
		t := s.st.turns[turnID]
		if t != nil && t.stopped {
			return
		}
		v := &ToolPill{TurnID: turnID, ToolID: tool, State: state}
		if t != nil && t.origin.sent() {
			v.Phrase = s.lines.phrase(tool)
		}
		s.log.Info(s.logName("client_tool"), "turn_id", turnID, "tool", tool, "state", state)
		s.setPill(v)
	})
}
