package demobackend

import (
	"context"

	"yui/transport/push"
)

// The pushserver hooks. They run on the socket's read goroutine and must
// not block: they update state under b.mu and start goroutines.

func (b *Backend) onConnected(chatID string, h push.Hello) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := b.chatLocked(chatID)
	ch.vocab = h.Vocabulary
	ch.hasLook = false
	ch.tools = nil
	for _, t := range h.Tools {
		ch.tools = append(ch.tools, t.Function.Name)
		if t.Function.Name == "look" {
			ch.hasLook = true
		}
	}
	b.log.Info("demo.connected", "chat_id", chatID, "look_tool", ch.hasLook, "emotions", len(h.Vocabulary.EmotionIDs))
}

func (b *Backend) onVocabulary(chatID string, v push.Vocabulary) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.chatLocked(chatID).vocab = v
}

func (b *Backend) onTurn(chatID string, t push.Turn) {
	p := planForTurn(t.Text, t.ClientContext)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	ch := b.chatLocked(chatID)
	if old := ch.active; old != nil {
		old.halt()
		ch.deferred = append(ch.deferred, old.id)
		b.log.Info("demo.turn_interrupted", "chat_id", chatID, "turn_id", old.id, "by", t.TurnID)
	}
	ch.turns++
	ctx, cancel := context.WithCancel(b.ctx)
	r := &run{b: b, ch: ch, id: t.TurnID, text: t.Text, images: len(t.Images), seq: ch.turns, pal: paletteOf(ch.vocab), ctx: ctx, cancel: cancel,
		gen: ch.gen, stubborn: p.stubborn, w: wordsIn(b.languageLocked(ch, t.Text))}
	ch.active = r
	b.log.Info("demo.turn", "chat_id", chatID, "turn_id", t.TurnID, "scenario", p.kind.String(), "images", len(t.Images))
	b.goLocked(func() {
		defer cancel()
		b.play(r, p)
	})
}

func (b *Backend) onStop(chatID string, ids []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	stopped := b.stopLocked(b.chatLocked(chatID), ids)
	b.log.Info("demo.stop", "chat_id", chatID, "named", len(ids), "stopped", len(stopped))
}

func (b *Backend) onReset(chatID string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ch := b.chatLocked(chatID)
	ch.gen++
	ch.turns = 0
	for id, cancel := range ch.workers {
		cancel()
		delete(ch.workers, id)
	}
	ch.delegs = nil
	// pushserver emptied the list before this hook; a delegation that
	// reported in between would have put items back.
	if len(b.srv.Delegations(chatID)) > 0 {
		b.sendLocked(chatID, push.Delegations{})
	}
	b.log.Info("demo.reset", "chat_id", chatID)
}

func (b *Backend) onPlayback(chatID string, p push.Playback) {
	b.log.Info("demo.playback", "chat_id", chatID, "turn_id", p.TurnID, "ended", p.Ended)
}
