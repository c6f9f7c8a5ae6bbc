package session

import (
	"time"

	"yui/app/delegation"
	"yui/transport"
)

// onDelegations merges the frame into the persisted history, replaces the
// live list and shows both.
func (s *Session) onDelegations(d transport.Delegations) {
	items := make([]delegation.Item, len(d.Items))
	for i, it := range d.Items {
		items[i] = delegation.Item{ID: it.ID, Title: it.Title, StartedAt: it.StartedAt, State: it.State,
			EndedAt: it.EndedAt, Status: it.Status, Summary: it.Summary}
	}
	if err := s.board.Apply(items); err != nil {
		s.log.Warn("delegations.history_save_failed", "err", err.Error())
	}
	s.log.Info("delegations", "items", len(items))
	s.emitDelegations()
}

// emitDelegations shows the chip's list and the history, and arms a timer
// for the next done item leaving the chip.
func (s *Session) emitDelegations() {
	s.emit(Delegations{Items: s.board.Visible(), History: s.board.History()})
	if s.st.delegTimer != nil {
		s.st.delegTimer.Stop()
		s.st.delegTimer = nil
	}
	s.st.delegSeq++
	at, ok := s.board.NextExpiry()
	if !ok {
		return
	}
	seq := s.st.delegSeq
	s.st.delegTimer = time.AfterFunc(max(0, at.Sub(s.now())), func() {
		s.post(func() {
			if s.st.delegSeq == seq {
				s.emitDelegations()
			}
		})
	})
}
