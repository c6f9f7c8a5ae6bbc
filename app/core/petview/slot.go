package petview

import (
	"sync"

	"yui/app/permission"
)

// Slot is her page's one prompt, shared by the screen gate and her MCP
// tools: a prompt withdrawn takes the slot away only while it is the one
// shown, so one asker never closes the other's prompt.
type Slot struct {
	view *View

	mu    sync.Mutex
	shown uint64
}

// NewSlot is v's prompt slot.
func NewSlot(v *View) *Slot { return &Slot{view: v} }

// Show shows p in her page.
func (s *Slot) Show(p permission.Prompt) {
	s.mu.Lock()
	s.shown = p.ID
	s.mu.Unlock()
	s.view.Prompt(p)
}

// Withdraw takes prompt id away if it is the one shown.
func (s *Slot) Withdraw(id uint64) {
	s.mu.Lock()
	if s.shown != id {
		s.mu.Unlock()
		return
	}
	s.shown = 0
	s.mu.Unlock()
	s.view.ClosePrompt()
}
