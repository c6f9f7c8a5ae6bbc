package push

import (
	"context"
	"errors"
	"strings"
	"time"

	"yui/transport"
)

var (
	errTurnStopped = errors.New("turn stopped")
	errSocketGone  = errors.New("socket left ready")
)

// stoppedSet remembers the turn ids the session stopped, the newest
// stoppedMemory of them.
type stoppedSet struct {
	ids   map[string]struct{}
	order []string
}

const stoppedMemory = 1024

func (s *stoppedSet) add(id string) {
	if s.ids == nil {
		s.ids = make(map[string]struct{})
	}
	if _, ok := s.ids[id]; ok {
		return
	}
	s.ids[id] = struct{}{}
	s.order = append(s.order, id)
	if len(s.order) > stoppedMemory {
		delete(s.ids, s.order[0])
		s.order = s.order[1:]
	}
}

func (s *stoppedSet) has(id string) bool {
	_, ok := s.ids[id]
	return ok
}

// MarkStopped tells the tool runner that the session stopped these turns:
// a tool_call naming one is answered "error: turn stopped" at once, a queued
// one when its turn comes, and a running one is cancelled and answered so.
// SendStop calls it; call it directly for a stop that could not go out.
func (c *Client) MarkStopped(turnIDs ...string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range turnIDs {
		c.stopped.add(id)
	}
	if s := c.cur; s != nil && s.tools != nil {
		s.tools.stopTurnsLocked()
	}
}

// toolQueue runs one socket's tool calls one at a time, in arrival order
// (rule 1). Its fields are guarded by the client's mu.
type toolQueue struct {
	c       *Client
	s       *socket
	queue   []ToolCall
	ids     map[string]struct{} // queued or running
	running *ToolCall
	cancel  context.CancelCauseFunc
	wake    chan struct{}
}

func newToolQueue(c *Client, s *socket) *toolQueue {
	return &toolQueue{c: c, s: s, ids: make(map[string]struct{}), wake: make(chan struct{}, 1)}
}

// toolCallArrived applies rules 2 and 3 at arrival and queues the call.
func (c *Client) toolCallArrived(s *socket, call ToolCall) {
	c.mu.Lock()
	if c.cur != s || s.killed || !s.ready {
		c.mu.Unlock()
		if !s.ready {
			c.log.Warn(EventBeforeReady, "frame_type", TypeToolCall)
		}
		return
	}
	q := s.tools
	c.noteTurnFrameLocked(call)
	if _, dup := q.ids[call.ID]; dup {
		c.mu.Unlock()
		c.log.Warn(EventToolDuplicate, "id", call.ID, "name", call.Name, "turn_id", call.TurnID)
		return
	}
	tool, ok := c.tools[call.Name]
	stopped := c.stopped.has(call.TurnID)
	c.observeLocked(func(h transport.Handler) { h.HandleToolCall(transport.ToolCall(call)) })
	c.mu.Unlock()
	switch {
	case !ok:
		c.answerNow(s, call, ResultUnknownTool)
		return
	case stopped:
		c.answerNow(s, call, ResultTurnStopped)
		return
	}
	if err := tool.Validate(call.Arguments); err != nil {
		c.answerNow(s, call, errorResult(err))
		return
	}
	c.mu.Lock()
	if c.cur != s || s.killed {
		c.mu.Unlock()
		return
	}
	if len(q.queue) >= MaxQueuedToolCalls {
		c.mu.Unlock()
		c.log.Warn(EventToolRefused, "id", call.ID, "name", call.Name, "queued", MaxQueuedToolCalls)
		c.answerNow(s, call, ResultTooManyCalls)
		return
	}
	defer c.mu.Unlock()
	q.queue = append(q.queue, call)
	q.ids[call.ID] = struct{}{}
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// errorResult renders a tool error as a result text.
func errorResult(err error) string {
	msg := strings.TrimSpace(err.Error())
	if strings.HasPrefix(msg, "error:") {
		return msg
	}
	return "error: " + msg
}

// answerNow answers a call at once (rule 2) from the read loop: on its
// own goroutine, so a slow socket does not hold the reading up — but at
// most MaxPendingAnswers of them at a time: past that the read loop waits
// (a backend that sends calls and does not read their answers is held by
// its own socket, not by the client's memory).
func (c *Client) answerNow(s *socket, call ToolCall, result string) {
	select {
	case s.answers <- struct{}{}:
	case <-s.dead:
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		defer func() { <-s.answers }()
		c.sendToolResult(s, call, result, nil)
	}()
}

// answerAsync sends a result without holding up the caller, which may hold
// c.mu (the queued calls of a stopped turn: at most MaxQueuedToolCalls).
func (c *Client) answerAsync(s *socket, call ToolCall, result string) {
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		c.sendToolResult(s, call, result, nil)
	}()
}

// stopTurnsLocked answers queued calls of stopped turns and cancels a
// running one.
func (q *toolQueue) stopTurnsLocked() {
	c := q.c
	kept := q.queue[:0]
	for _, call := range q.queue {
		if c.stopped.has(call.TurnID) {
			delete(q.ids, call.ID)
			c.answerAsync(q.s, call, ResultTurnStopped)
			continue
		}
		kept = append(kept, call)
	}
	q.queue = kept
	if q.running != nil && c.stopped.has(q.running.TurnID) {
		q.cancel(errTurnStopped)
	}
}

// shutdownLocked drops the queue and cancels the running call; their
// results could not be sent anyway.
func (q *toolQueue) shutdownLocked() {
	q.queue = nil
	if q.cancel != nil {
		q.cancel(errSocketGone)
	}
}

type toolOutcome struct {
	result string
	images []string
	err    error
}

// loop is the socket's tool goroutine.
func (q *toolQueue) loop() {
	c := q.c
	defer c.wg.Done()
	for {
		c.mu.Lock()
		for len(q.queue) == 0 {
			if q.s.killed {
				c.mu.Unlock()
				return
			}
			c.mu.Unlock()
			select {
			case <-q.wake:
			case <-q.s.dead:
			}
			c.mu.Lock()
		}
		if q.s.killed {
			c.mu.Unlock()
			return
		}
		call := q.queue[0]
		q.queue = q.queue[1:]
		if c.stopped.has(call.TurnID) {
			delete(q.ids, call.ID)
			c.mu.Unlock()
			c.sendToolResult(q.s, call, ResultTurnStopped, nil)
			continue
		}
		tool := c.tools[call.Name]
		ctx, cancel := context.WithCancelCause(transport.WithImageRoom(context.Background(), imageRoomFor(call, q.s.maxTurnBytes)))
		q.running, q.cancel = &call, cancel
		c.mu.Unlock()

		a := q.runOne(ctx, cancel, tool, call)

		// The id leaves the queued-or-running set before its answer goes
		// out (rule 3 is about calls still queued or running): a backend
		// that reuses the id as soon as it reads the result is answered.
		c.mu.Lock()
		q.running, q.cancel = nil, nil
		delete(q.ids, call.ID)
		c.mu.Unlock()
		if a.send {
			c.sendToolResult(q.s, call, a.result, a.images)
		}
		q.awaitReturn(call, a)
	}
}

// answer is what runOne decided for a call: the result to send (send is
// false when nothing can be sent), and the channel the Run's return
// arrives on (nil once it has returned).
type answer struct {
	send     bool
	result   string
	images   []string
	returned <-chan toolOutcome
	at       time.Time
}

// runOne runs one call under the tool's client wait, counted from now, and
// decides its answer. The Run's context is cancelled by the time it
// returns.
func (q *toolQueue) runOne(ctx context.Context, cancel context.CancelCauseFunc, tool Tool, call ToolCall) answer {
	c := q.c
	wait := tool.Wait()
	if wait <= 0 {
		wait = ClientToolWait(call.Name)
	}
	out := make(chan toolOutcome, 1)
	go func() {
		r, imgs, err := tool.Run(ctx, transport.ToolCall(call))
		out <- toolOutcome{r, imgs, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case o := <-out:
		cancel(nil)
		if o.err != nil {
			if errors.Is(context.Cause(ctx), errTurnStopped) {
				return answer{send: true, result: ResultTurnStopped}
			}
			return answer{send: true, result: errorResult(o.err)}
		}
		return answer{send: true, result: o.result, images: o.images}
	case <-timer.C:
		cancel(context.DeadlineExceeded)
		c.log.Warn(EventToolTimedOut, "id", call.ID, "name", call.Name, "wait_ms", wait.Milliseconds())
		return answer{send: true, result: ResultTimedOut(wait), returned: out, at: time.Now()}
	case <-ctx.Done():
		if errors.Is(context.Cause(ctx), errTurnStopped) {
			return answer{send: true, result: ResultTurnStopped, returned: out, at: time.Now()}
		}
		// The socket left ready: nothing can be sent.
		c.log.Info(EventToolDropped, "id", call.ID, "name", call.Name, "reason", "not_ready")
		return answer{returned: out, at: time.Now()}
	}
}

// awaitReturn holds the next call back until the answered call's Run
// returns (calls run one at a time, rule 1), until the socket dies, or
// until ToolAbandonAfter has passed since the answer: a Run that ignores
// its cancelled context that long is abandoned with a log line and the
// queue moves on without it.
func (q *toolQueue) awaitReturn(call ToolCall, a answer) {
	if a.returned == nil {
		return
	}
	t := time.NewTimer(ToolAbandonAfter - time.Since(a.at))
	defer t.Stop()
	select {
	case <-a.returned:
	case <-q.s.dead:
	case <-t.C:
		q.c.log.Warn(EventToolAbandoned, "id", call.ID, "name", call.Name, "after_ms", ToolAbandonAfter.Milliseconds())
	}
}

// sendToolResult applies rule 4: a frame over its limit becomes "error:
// result too large" (after fitting images when a fitter is set), and a
// result for a socket that is no longer ready is logged and dropped.
func (c *Client) sendToolResult(s *socket, call ToolCall, result string, images []string) {
	c.mu.Lock()
	ok := c.cur == s && s.ready && !s.killed
	conn, mtb := s.conn, s.maxTurnBytes
	c.mu.Unlock()
	if !ok {
		c.log.Info(EventToolDropped, "id", call.ID, "name", call.Name, "reason", "not_ready")
		return
	}
	tr := ToolResult{ID: call.ID, TurnID: call.TurnID, Result: result, Images: images}
	if len(images) == 0 {
		tr.Images = nil
	}
	tr = c.fitToolResult(tr, mtb)
	if err := c.writeFrame(s, conn, tr, mtb); err != nil {
		c.log.Info(EventToolDropped, "id", call.ID, "name", call.Name, "reason", "write_failed")
		return
	}
	c.mu.Lock()
	c.observeLocked(func(h transport.Handler) { h.HandleToolResult(transport.ToolResult(tr)) })
	c.mu.Unlock()
}

// observeLocked queues a tool report for the Handler.
func (c *Client) observeLocked(fn func(transport.Handler)) {
	if h := c.handler; !c.closed {
		c.disp.Push(func() { fn(h) })
	}
}

// fitToolResult returns tr, or tr with fitted images, or the too-large
// answer, so that the final serialized frame fits its limit.
func (c *Client) fitToolResult(tr ToolResult, mtb int) ToolResult {
	fits := func(t ToolResult) bool {
		b, err := Encode(t)
		return err == nil && len(b) <= FrameLimit(t, mtb)
	}
	if fits(tr) {
		return tr
	}
	tooLarge := ToolResult{ID: tr.ID, TurnID: tr.TurnID, Result: ResultTooLarge}
	if len(tr.Images) > 0 && c.cfg.ImageFitter != nil {
		bare := tr
		bare.Images = nil
		b, err := Encode(bare)
		limit := FrameLimit(tr, mtb)
		// ,"images":[] plus quotes and commas per image.
		room := limit - len(b) - len(`,"images":[]`) - 3*len(tr.Images)
		if err == nil && room > 0 {
			if imgs, err := c.cfg.ImageFitter.FitImages(tr.Images, room); err == nil && len(imgs) > 0 {
				fitted := tr
				fitted.Images = imgs
				if fits(fitted) {
					return fitted
				}
			}
		}
	}
	c.log.Warn(EventToolTooLarge, "id", tr.ID, "images", len(tr.Images))
	return tooLarge
}
