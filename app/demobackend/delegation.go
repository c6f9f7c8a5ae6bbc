package demobackend

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"yui/transport/push"
	"yui/transport/pushserver"
)

// playDelegate hands the turn's text to a background worker and says so.
func (b *Backend) playDelegate(r *run, p plan) bool {
	if !r.think(thinkStep, "This will take a while, so I'll hand it to a background worker.") {
		return false
	}
	b.mu.Lock()
	if r.halted {
		b.mu.Unlock()
		return false
	}
	if r.ch.gen == r.gen { // a reset meanwhile ended this turn's conversation
		b.startDelegationLocked(r.ch, r.text, p.fail)
	}
	b.mu.Unlock()
	return r.say(speakStep,
		line{text: r.w.s("delegate.handed"), emotion: "happy", motion: "happy"},
		line{text: r.w.s("delegate.will_tell"), emotion: "relaxed", motion: "calm"}) &&
		r.closeWith(p.echo, r.pal.segment(line{emotion: "relaxed"}))
}

// startDelegationLocked adds a running item, sends the list and starts the
// worker that finishes it after DelegationDelay. Needs b.mu.
func (b *Backend) startDelegationLocked(ch *chat, task string, fail bool) {
	b.delegID++
	id := "d-" + strconv.FormatUint(b.delegID, 10)
	title := strings.TrimSpace(task)
	if title == "" {
		title = "Demo background task"
	}
	item := pushserver.CutDelegation(push.Delegation{ID: id, Title: title, StartedAt: b.cfg.Now().UnixMilli(), State: "running"})
	ch.delegs = pushserver.CutDelegations(append(ch.delegs, item))
	b.sendLocked(ch.id, push.Delegations{Items: ch.delegs})
	ctx, cancel := context.WithCancel(b.ctx)
	ch.workers[id] = cancel
	gen := ch.gen
	b.log.Info("demo.delegation", "chat_id", ch.id, "id", id, "state", "running")
	b.goLocked(func() {
		defer cancel()
		t := time.NewTimer(b.cfg.DelegationDelay)
		defer t.Stop()
		select {
		case <-t.C:
			b.finishDelegation(ch, gen, id, fail)
		case <-ctx.Done():
		}
	})
}

// finishDelegation marks the item done, sends the list, and reports the
// result in a turn the backend starts itself.
func (b *Backend) finishDelegation(ch *chat, gen uint64, id string, fail bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, running := ch.workers[id]; !running || ch.gen != gen || b.closed {
		return // reset or closed meanwhile
	}
	delete(ch.workers, id)
	status, summary := "ok", "Counted 42 sheep; all of them are accounted for."
	w := wordsIn(b.languageLocked(ch, ""))
	lines := []line{
		{text: w.s("delegate.done"), emotion: "happy", motion: "dance", tone: "joyfully"},
		{text: w.s("delegate.sheep"), emotion: "relaxed"},
	}
	if fail {
		status, summary = "error", "The worker gave up on purpose: this delegation was asked to fail."
		lines = []line{
			{text: w.s("delegate.failed"), emotion: "sad", motion: "sulk"},
			{text: w.s("delegate.on_purpose"), emotion: "embarrassed", motion: "sheepish"},
		}
	}
	var title string
	for i := range ch.delegs {
		if ch.delegs[i].ID == id {
			d := &ch.delegs[i]
			d.State, d.Status, d.EndedAt = "done", status, b.cfg.Now().UnixMilli()
			d.Summary = pushserver.CutCodePoints(summary, push.MaxDelegationSummary)
			title = d.Title
		}
	}
	b.sendLocked(ch.id, push.Delegations{Items: ch.delegs})
	b.minted++
	turnID := "demo-" + strconv.FormatUint(b.minted, 10)
	b.log.Info("demo.delegation", "chat_id", ch.id, "id", id, "state", "done", "status", status, "report_turn", turnID)
	pal := paletteOf(ch.vocab)
	segs := make([]push.Segment, len(lines))
	out := 0
	for i, l := range lines {
		segs[i] = pal.segment(l)
		out += len(l.text) / 4
	}
	reasoning := fmt.Sprintf("Worker %s finished %q with status %s; tell the user.", id, quote(title), status)
	b.sendLocked(ch.id, push.Render{TurnID: turnID, Segments: segs, Reasoning: reasoning})
	in := 1200 + 150*ch.turns
	b.sendLocked(ch.id, push.TurnEnd{TurnID: turnID, Usage: &push.Usage{InputTokens: float64(in), OutputTokens: float64(out), TotalTokens: float64(in + out)}})
}
