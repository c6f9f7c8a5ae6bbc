package core

import (
	"sync"

	"yui/app/core/petview"
	"yui/app/permission"
)

// promptSlot is her page's one prompt, shared by the screen gate and her
// MCP tools: a prompt withdrawn takes the slot away only while it is the
// one shown, so one asker never closes the other's prompt.
type promptSlot struct {
	view *petview.View

	mu    sync.Mutex
	shown uint64
}

func (s *promptSlot) show(p permission.Prompt) {
	s.mu.Lock()
	s.shown = p.ID
	s.mu.Unlock()
	s.view.Prompt(p)
}

func (s *promptSlot) withdraw(id uint64) {
	s.mu.Lock()
	if s.shown != id {
		s.mu.Unlock()
		return
	}
	s.shown = 0
	s.mu.Unlock()
	s.view.ClosePrompt()
}
