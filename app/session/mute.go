package session

// SetVoicesMuted is the user's "Mute voices" (tray and pet menu): while on,
// every sentence is shown and not voiced (speech events carry Muted), and
// muting stops the voice of the sentence playing now. It is independent of
// a barge-in's mute: the end of that one does not unmute the user's.
func (s *Session) SetVoicesMuted(on bool) {
	s.post(func() {
		s.st.userMuted = on
		s.player.SetMuted(on || s.st.muted)
	})
}
