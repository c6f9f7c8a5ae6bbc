package session

// logName is the log event name of event on the session's wire:
// push.speech, chat_completions.turn_end, threads.render …
func (s *Session) logName(event string) string {
	w := s.opts.Wire
	if w == "" {
		w = "push"
	}
	return w + "." + event
}
