package threads

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"yui/transport"
)

// Turns, stop and reset: the jobs the sender goroutine runs in order.

// job is one thing the sender goroutine does, in order: post a turn, post
// a stop, or switch to a new thread.
type job interface{ run(t *Transport) }

type sendJob struct {
	turnID  string
	body    []byte
	stopped bool // the turn was stopped before its post answered
}

// SendTurn posts the turn's message on the sender goroutine. It returns
// ErrNotReady while the socket is not open (the reply could not be
// heard), ErrOversize past MaxTurnBytes.
func (t *Transport) SendTurn(_ context.Context, tu transport.Turn) error {
	if tu.TurnID == "" {
		return errors.New("threads: send turn: empty turn id")
	}
	body, err := encodeTurn(tu)
	if err != nil {
		return fmt.Errorf("threads: send turn %s: %w", tu.TurnID, err)
	}
	if len(body) > MaxTurnBytes {
		return fmt.Errorf("threads: send turn %s: %w", tu.TurnID, transport.ErrOversize)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return fmt.Errorf("threads: send turn %s: %w", tu.TurnID, transport.ErrClosed)
	case t.state != transport.StateReady:
		return fmt.Errorf("threads: send turn %s: %w", tu.TurnID, transport.ErrNotReady)
	}
	j := &sendJob{turnID: tu.TurnID, body: body}
	select {
	case t.jobs <- j:
	default:
		return fmt.Errorf("threads: send turn %s: too many messages waiting to go out: %w", tu.TurnID, transport.ErrNotReady)
	}
	t.sending[tu.TurnID] = j
	t.armWaitLocked(tu.TurnID)
	return nil
}

func (j *sendJob) run(t *Transport) {
	t.order.Lock()
	defer t.order.Unlock()
	t.mu.Lock()
	thread, key, base := t.thread, t.cfg.Key(), t.cfg.Endpoint()
	stopped := j.stopped
	t.mu.Unlock()
	msgID, err := "", error(nil)
	if stopped {
		err = errors.New("stopped before it was sent")
	} else {
		ctx, cancel := context.WithTimeout(t.ctx, HTTPWait)
		var api *API
		if api, err = NewAPI(t.hc, base, key); err == nil {
			msgID, err = api.SendRaw(ctx, thread, j.body)
		}
		cancel()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.sending, j.turnID)
	if t.closed {
		return
	}
	if j.stopped {
		if err == nil {
			// Its run will come: it is silenced.
			t.m.posted(j.turnID, msgID, true)
		}
		return
	}
	if err == nil {
		t.log.Info("threads.posted", "turn_id", j.turnID, "message_id", msgID, "bytes", len(j.body))
		t.m.posted(j.turnID, msgID, false)
		return
	}
	t.endedLocked(j.turnID)
	var ae *APIError
	switch {
	case errors.As(err, &ae) && ae.Refused():
		t.log.Warn("threads.post_refused", "turn_id", j.turnID, "status", ae.Status)
		t.emitLocked(transport.TurnError{TurnID: j.turnID, Message: fmt.Sprintf("The runtime refused the key (HTTP %d). Check the key in Settings → Backend.", ae.Status)})
	case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
		// The thread was deleted: said at once, plainly, not when the
		// runtime gets round to closing the socket (≈ 10 s on 0.41.12).
		t.log.Warn("threads.post_refused", "turn_id", j.turnID, "status", ae.Status)
		if t.problem != ProblemDeleted {
			t.deletedLocked(-1)
		}
		t.emitLocked(transport.TurnError{TurnID: j.turnID, Message: DeletedLine})
		w := transport.TurnWaitEnded{TurnID: j.turnID, Reason: transport.SocketLeftReady}
		t.dispatchLocked(func(h transport.Handler) { h.HandleTurnWait(w) })
	case errors.As(err, &ae):
		t.log.Warn("threads.post_refused", "turn_id", j.turnID, "status", ae.Status, "code", ae.Code)
		t.emitLocked(transport.TurnError{TurnID: j.turnID, Message: ae.Error()})
	default:
		t.log.Warn("network_drop", "stage", "thread_post", "turn_id", j.turnID, "err", err.Error())
		w := transport.TurnWaitEnded{TurnID: j.turnID, Reason: transport.SocketLeftReady}
		t.dispatchLocked(func(h transport.Handler) { h.HandleTurnWait(w) })
	}
	t.emitLocked(transport.TurnEnd{TurnID: j.turnID})
}

type stopJob struct{ thread string }

func (j stopJob) run(t *Transport) {
	t.mu.Lock()
	key, base := t.cfg.Key(), t.cfg.Endpoint()
	t.mu.Unlock()
	ctx, cancel := context.WithTimeout(t.ctx, HTTPWait)
	defer cancel()
	api, err := NewAPI(t.hc, base, key)
	if err == nil {
		err = api.Stop(ctx, j.thread)
	}
	if err != nil {
		t.log.Warn("threads.stop_failed", "err", err.Error())
		return
	}
	t.log.Info("threads.stop_sent")
}

// Stop ends the turns at once (each gets its TurnEnd; the rest of their
// runs is dropped) and, when the run going now is one of theirs, posts
// …/stop on the sender goroutine, after what is queued before it.
func (t *Transport) Stop(_ context.Context, turnIDs []string) error {
	t.stopTurns(turnIDs)
	return nil
}

// MarkStopped is Stop for a new turn or barge-in: the runtime is told
// only when the run going now is one of the turns', so the next message
// does not wait behind it.
func (t *Transport) MarkStopped(turnIDs ...string) { t.stopTurns(turnIDs) }

func (t *Transport) stopTurns(ids []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	for _, id := range ids {
		if j := t.sending[id]; j != nil && !j.stopped {
			j.stopped = true
			t.endedLocked(id)
			t.emitLocked(transport.TurnEnd{TurnID: id})
		}
	}
	if running := t.m.stop(ids); running && t.thread != "" {
		select {
		case t.jobs <- stopJob{thread: t.thread}:
		default:
			t.log.Warn("threads.stop_failed", "err", "too many jobs waiting")
		}
	}
}

type resetJob struct{ done chan error }

func (j resetJob) run(t *Transport) { j.done <- t.newThread() }

// Reset starts a new conversation: a new thread for the agent (the old one
// is left as it is), which the client then follows. It returns when the
// thread was made, or the error that kept it from being made.
func (t *Transport) Reset(ctx context.Context) error {
	t.mu.Lock()
	if t.closed || !t.started {
		t.mu.Unlock()
		return fmt.Errorf("threads: reset: %w", transport.ErrClosed)
	}
	j := resetJob{done: make(chan error, 1)}
	select {
	case t.jobs <- j:
	default:
		t.mu.Unlock()
		return fmt.Errorf("threads: reset: too many jobs waiting: %w", transport.ErrNotReady)
	}
	t.mu.Unlock()
	select {
	case err := <-j.done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("threads: reset: %w", ctx.Err())
	case <-t.ctx.Done():
		return fmt.Errorf("threads: reset: %w", transport.ErrClosed)
	}
}

// newThread makes a thread for the agent and moves to it.
func (t *Transport) newThread() error {
	t.mu.Lock()
	agent, key, base := strings.TrimSpace(t.cfg.Agent()), t.cfg.Key(), t.cfg.Endpoint()
	t.mu.Unlock()
	if agent == "" {
		return fmt.Errorf("threads: new thread: no agent chosen: %w", transport.ErrNotConfigured)
	}
	api, err := NewAPI(t.hc, base, key)
	if err != nil {
		return fmt.Errorf("threads: new thread: %w: %w", transport.ErrNotConfigured, err)
	}
	ctx, cancel := context.WithTimeout(t.ctx, HTTPWait)
	id, err := api.CreateThread(ctx, agent, []string{"yui"})
	cancel()
	if err != nil {
		return fmt.Errorf("threads: new thread: %w", err)
	}
	t.save(id)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return nil
	}
	t.log.Info("threads.reset", "thread", id)
	t.m.abandon(nil)
	t.m.reset()
	t.thread, t.problem = id, ""
	t.statusLocked()
	t.failures, t.closes = 0, 0
	t.attemptLocked()
	s := t.cur
	t.mu.Unlock()
	// Back when the new thread's stream is ready (or the attempt ended),
	// so a turn sent next goes to it.
	if s != nil {
		select {
		case <-s.settled:
		case <-t.ctx.Done():
		}
	}
	t.mu.Lock()
	return nil
}

// save remembers a thread the client made.
func (t *Transport) save(id string) {
	t.log.Info("threads.thread_created", "thread", id)
	if t.cfg.SaveThread == nil {
		return
	}
	if err := t.cfg.SaveThread(id); err != nil {
		t.log.Warn("threads.thread_not_saved", "thread", id, "err", err.Error())
	}
}

// sender runs the jobs in order until Close.
func (t *Transport) sender() {
	defer t.wg.Done()
	for j := range t.jobs {
		if rj, ok := j.(resetJob); ok && t.ctx.Err() != nil {
			rj.done <- transport.ErrClosed
			continue
		}
		j.run(t)
	}
}
