package pushserver

import "yui/transport/push"

// chat is the server's state for one chat_id; guarded by Server.mu.
type chat struct {
	id          string
	conn        *sconn // the ready socket, nil while the client is away
	accepts     []string
	held        []push.Frame
	delegations []push.Delegation
	slot        chan struct{} // one tool call in flight (adapter rule 2)
	pending     map[string]*pendingCall
	waiting     map[*pendingCall]struct{}
	stopped     map[string]struct{}
}

func newChat(id string) *chat {
	return &chat{
		id:      id,
		slot:    make(chan struct{}, 1),
		pending: make(map[string]*pendingCall),
		waiting: make(map[*pendingCall]struct{}),
		stopped: make(map[string]struct{}),
	}
}

func (ch *chat) acceptsType(t string) bool {
	for _, a := range push.BaseSet {
		if a == t {
			return true
		}
	}
	for _, a := range ch.accepts {
		if a == t {
			return true
		}
	}
	return false
}

// holdable reports whether a frame is held for an absent client: renders,
// turn_ends and errors are; speech, reasoning and tool_status describe a
// run in progress and are dropped.
func holdable(f push.Frame) bool {
	switch f.(type) {
	case push.Render, push.TurnEnd, push.ErrorFrame:
		return true
	}
	return false
}

// answerAllLocked answers every waiting and in-flight call (of one turn
// when turnIDs is non-nil) with result, and forgets them.
func (ch *chat) answerAllLocked(result string, turnIDs map[string]struct{}) {
	match := func(p *pendingCall) bool {
		if turnIDs == nil {
			return true
		}
		_, ok := turnIDs[p.turnID]
		return ok
	}
	for p := range ch.waiting {
		if match(p) {
			delete(ch.waiting, p)
			p.answer(toolAnswer{result: result})
		}
	}
	for id, p := range ch.pending {
		if match(p) {
			delete(ch.pending, id)
			p.answer(toolAnswer{result: result})
		}
	}
}
