package demobackend

import (
	"context"
	"slices"

	"yui/app/i18n"
	"yui/transport/push"
)

// chat is one conversation (per chat_id); guarded by Backend.mu.
type chat struct {
	id       string
	vocab    push.Vocabulary
	hasLook  bool      // the latest hello declared the look tool
	tools    []string  // the tools the latest hello declared
	gen      uint64    // conversation number; reset moves it on
	turns    int       // turns in this conversation (drives the usage figures)
	lang     i18n.Lang // the language of the user's latest message ("" before one)
	active   *run      // the turn running now, nil when idle
	deferred []string
	delegs   []push.Delegation
	workers  map[string]context.CancelFunc // running delegations by id
	// sink, when set, receives the chat's frames instead of a push
	// socket: the OpenAI-compatible routes (openai.go) play the same
	// scripts through it.
	sink func(push.Frame)
}

func (b *Backend) chatLocked(id string) *chat {
	ch := b.chats[id]
	if ch == nil {
		ch = &chat{id: id, workers: make(map[string]context.CancelFunc)}
		b.chats[id] = ch
	}
	return ch
}

// endActiveLocked sends the active turn's turn_end (usage may be nil) and
// then those of the turns it interrupted, and leaves the chat idle.
func (b *Backend) endActiveLocked(ch *chat, usage *push.Usage) {
	r := ch.active
	ch.active = nil
	r.halt()
	b.sendLocked(ch.id, push.TurnEnd{TurnID: r.id, Usage: usage})
	for _, id := range ch.deferred {
		b.sendLocked(ch.id, push.TurnEnd{TurnID: id})
	}
	ch.deferred = nil
}

// stopLocked ends the named turns the chat still holds; others are ignored.
func (b *Backend) stopLocked(ch *chat, ids []string) (stopped []string) {
	for _, id := range ids {
		if ch.active != nil && ch.active.id == id && ch.active.stubborn {
			continue // the stubborn scenario ignores stop, as a backend may
		}
		if ch.active != nil && ch.active.id == id {
			deferred := ch.deferred
			b.endActiveLocked(ch, nil)
			stopped = append(append(stopped, id), deferred...)
			continue
		}
		if i := slices.Index(ch.deferred, id); i >= 0 {
			ch.deferred = slices.Delete(ch.deferred, i, i+1)
			b.sendLocked(ch.id, push.TurnEnd{TurnID: id})
			stopped = append(stopped, id)
		}
	}
	return stopped
}
