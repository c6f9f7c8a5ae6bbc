package pushserver

import (
	"fmt"

	"yui/transport/push"
)

// adaptLocked turns an error frame into the backend's failure line for a
// client whose latest hello does not list error in accepts.
func (s *Server) adaptLocked(ch *chat, f push.Frame) push.Frame {
	if e, ok := f.(push.ErrorFrame); ok && !ch.acceptsType(push.TypeError) {
		return push.Render{TurnID: e.TurnID, Source: s.cfg.Source, Segments: []push.Segment{{Speech: s.cfg.FailureLine(e.Message)}}}
	}
	return f
}

// Send sends a backend frame to the chat: render, speech, turn_end, error,
// tool_status, reasoning or delegations (the latter replaces the stored
// list, as SetDelegations). An error frame goes to a client whose hello
// lists error in accepts; any other client gets the failure line as a render
// instead. While the client is away render, turn_end and error frames are
// held (and replayed in order after the next ready) and Send returns nil;
// other frames are dropped with ErrNotConnected. A frame over 256 KiB is
// refused with an error wrapping push.ErrOversize.
func (s *Server) Send(chatID string, f push.Frame) error {
	switch f := f.(type) {
	case push.Delegations:
		return s.SetDelegations(chatID, f.Items)
	case push.Render, push.Speech, push.TurnEnd, push.ErrorFrame, push.ToolStatus, push.Reasoning:
	default:
		return fmt.Errorf("pushserver: send %s: use the dedicated method or not a backend frame", f.FrameType())
	}
	b, err := push.Encode(f)
	if err != nil {
		return err
	}
	if len(b) > push.MaxFrameBytes {
		return fmt.Errorf("pushserver: send: %w", &push.OversizeError{FrameType: f.FrameType(), Size: len(b), Limit: push.MaxFrameBytes})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	ch := s.chatLocked(chatID)
	if ch.conn == nil {
		if !holdable(f) {
			return fmt.Errorf("pushserver: send %s to %s: %w", f.FrameType(), chatID, ErrNotConnected)
		}
		ch.held = append(ch.held, f)
		if over := len(ch.held) - s.cfg.HoldLimit; over > 0 {
			s.log.Warn("held_dropped", "chat_id", chatID, "frames", over)
			ch.held = append(ch.held[:0], ch.held[over:]...)
		}
		return nil
	}
	if _, isErr := f.(push.ErrorFrame); isErr {
		b = mustEncode(s.adaptLocked(ch, f))
	}
	ch.conn.enqueue(b)
	return nil
}

// SendRender sends or holds a render.
func (s *Server) SendRender(chatID string, r push.Render) error {
	if r.Source == "" {
		r.Source = s.cfg.Source
	}
	return s.Send(chatID, r)
}

// SendSpeech sends one speech frame (dropped while the client is away).
func (s *Server) SendSpeech(chatID string, sp push.Speech) error { return s.Send(chatID, sp) }

// SendTurnEnd sends or holds a turn_end.
func (s *Server) SendTurnEnd(chatID, turnID string, usage *push.Usage) error {
	return s.Send(chatID, push.TurnEnd{TurnID: turnID, Usage: usage})
}

// SendError sends or holds a turn's failure (see Send for accepts).
func (s *Server) SendError(chatID, turnID, message string) error {
	return s.Send(chatID, push.ErrorFrame{TurnID: turnID, Message: message})
}

// SendToolStatus sends a tool_status (dropped while the client is away).
func (s *Server) SendToolStatus(chatID, turnID, state, toolID string) error {
	return s.Send(chatID, push.ToolStatus{TurnID: turnID, State: state, ToolID: toolID})
}

// SendReasoning sends a reasoning delta (dropped while the client is away).
func (s *Server) SendReasoning(chatID, turnID, delta string) error {
	return s.Send(chatID, push.Reasoning{TurnID: turnID, Delta: delta})
}

// SetDelegations replaces the chat's delegation list (cut to the limits
// table) and sends it when the client is connected; the list is also sent
// right after every ready.
func (s *Server) SetDelegations(chatID string, items []push.Delegation) error {
	cut := CutDelegations(items)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	ch := s.chatLocked(chatID)
	ch.delegations = cut
	if ch.conn != nil {
		ch.conn.enqueue(mustEncode(push.Delegations{Items: cut}))
	}
	return nil
}

// Delegations returns the chat's current (cut) list.
func (s *Server) Delegations(chatID string) []push.Delegation {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch := s.chats[chatID]; ch != nil {
		return append([]push.Delegation(nil), ch.delegations...)
	}
	return nil
}

// reset starts a new conversation: delegations end and an empty list goes out.
func (s *Server) reset(chatID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.chatLocked(chatID)
	ch.delegations = nil
	if ch.conn != nil {
		ch.conn.enqueue(mustEncode(push.Delegations{}))
	}
}
