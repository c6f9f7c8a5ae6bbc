package threadserver

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// Agent writes one run's reply through r. It runs on its own goroutine
// and returns when the reply is written; after a stop, r's methods do
// nothing (r.Context() is done). Returning without a call of Fail
// completes the reply.
type Agent func(r *Reply)

// Reply is one run as its agent writes it. Its methods are safe to call
// from the agent's goroutine; each sends its frames at once.
type Reply struct {
	s      *Server
	th     *thread
	ctx    context.Context
	cancel context.CancelFunc
	user   *msg // nil for an injected run

	cur   *msg // the assistant message being written
	text  strings.Builder
	final *string
	step  int
	ended bool
}

// Context is done when the run was stopped or the thread deleted.
func (r *Reply) Context() context.Context { return r.ctx }

// Text is the user message's content ("" for an injected run).
func (r *Reply) Text() string {
	if r.user == nil || r.user.Content == nil {
		return ""
	}
	return *r.user.Content
}

// Utterance is the content after a leading client_context block.
func (r *Reply) Utterance() string {
	t := r.Text()
	if i := strings.LastIndex(t, "</client_context>"); i >= 0 {
		t = t[i+len("</client_context>"):]
	}
	return strings.TrimSpace(t)
}

// Thread is the run's thread id.
func (r *Reply) Thread() string { return r.th.id }

// DropAndAwait drops the thread's stream sockets (a network drop, as
// DropStreams) and waits until a client opened one again, at most wait:
// what the agent says next reaches only the chunks still to come. It
// reports whether a socket came back.
func (r *Reply) DropAndAwait(wait time.Duration) bool {
	s := r.s
	s.mu.Lock()
	opens := r.th.stats.Opens
	s.mu.Unlock()
	s.DropStreams(r.th.id)
	ctx, cancel := context.WithTimeout(r.ctx, wait)
	defer cancel()
	return s.Wait(ctx, func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return r.th.stats.Opens > opens && len(r.th.socks) > 0
	}) == nil
}

// Prior is how many user messages the thread had before this run's.
func (r *Reply) Prior() int {
	r.s.mu.Lock()
	defer r.s.mu.Unlock()
	n := 0
	for _, m := range r.th.msgs {
		if m == r.user {
			break
		}
		if m.Role == "user" {
			n++
		}
	}
	return n
}

// Images is how many attachments the user message had.
func (r *Reply) Images() int {
	if r.user == nil {
		return 0
	}
	return len(r.user.Attachments)
}

// live takes the server's lock and reports whether the run still goes;
// the caller unlocks.
func (r *Reply) live() bool {
	r.s.mu.Lock()
	return !r.ended && r.ctx.Err() == nil && r.th.run == r
}

// Say streams chunks of the current assistant message.
func (r *Reply) Say(chunks ...string) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	for _, c := range chunks {
		r.text.WriteString(c)
		r.s.broadcastLocked(r.th, map[string]any{"type": "message_chunk", "message_id": r.cur.ID, "depth": 0, "chunk": c})
	}
	r.s.notifyLocked()
}

// Think streams reasoning of the current assistant message.
func (r *Reply) Think(chunks ...string) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	for _, c := range chunks {
		r.s.broadcastLocked(r.th, map[string]any{"type": "reasoning_chunk", "message_id": r.cur.ID, "depth": 0, "chunk": c})
	}
}

// Final makes the terminal record's content differ from the chunks.
func (r *Reply) Final(content string) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	r.final = &content
}

// Event emits a custom event (data nil: an event without data).
func (r *Reply) Event(name string, data any) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	r.s.eventLocked(r.th, name, data)
}

// Sub streams a sub-prompt message at depth 1 (not for a depth-0 socket).
func (r *Reply) Sub(text string) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	m := r.s.newMsgLocked(r.th, "assistant", strp(text))
	m.Depth = 1
	m.Status = strp("completed")
	r.s.broadcastLocked(r.th, map[string]any{"type": "message_chunk", "message_id": m.ID, "depth": 1, "chunk": text})
	r.s.sendRecordLocked(r.th, m, "role", "content", "status", "depth", "created_at")
}

// Tool runs a tool step: the current message completes with a tool call,
// tool_started and tool_completed (ok or error) go out with the tool's
// result message, and the next step's assistant message starts.
func (r *Reply) Tool(name string, ok bool) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	s, th := r.s, r.th
	calls, _ := json.Marshal([]map[string]any{{"id": "call_" + r.cur.ID[:8], "type": "function",
		"function": map[string]any{"name": name, "arguments": "{}"}}})
	r.cur.ToolCalls = strp(string(calls))
	r.completeLocked()
	s.telemetryLocked(th, "tool_started", map[string]any{"tool": name})
	status := "success"
	if !ok {
		status = "error"
	}
	res := s.newMsgLocked(th, "tool", strp("result of "+name))
	res.ToolCallID = strp("call_" + r.cur.ID[:8])
	res.ToolStatus = strp(status)
	res.Name = strp(name)
	res.Status = strp("completed")
	s.telemetryLocked(th, "tool_completed", map[string]any{"tool": name, "status": status})
	s.sendRecordLocked(th, res, "role", "content", "tool_call_id", "tool_status", "name", "created_at", "status")
	s.telemetryLocked(th, "step_completed", map[string]any{"step": r.step, "stopped": false})
	r.step++
	s.telemetryLocked(th, "step_started", map[string]any{"step": r.step, "side": "a"})
	r.startLocked()
	s.notifyLocked()
}

// Retry is a provider retry: the message being written fails and another
// one (a new id) starts; the agent says its text again.
func (r *Reply) Retry() {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	s, th := r.s, r.th
	s.telemetryLocked(th, "llm_request", map[string]any{"model": "test", "attempt": 2})
	s.telemetryLocked(th, "fallback_triggered", map[string]any{"from": "test", "to": "test-2"})
	r.cur.Status = strp("failed")
	s.sendRecordLocked(th, r.cur, "role", "status", "created_at")
	r.startLocked()
	s.notifyLocked()
}

// Fail ends the run failed with reason.
func (r *Reply) Fail(reason string) {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	s, th := r.s, r.th
	b := s.cfg.Behaviour
	if !b.StopReasonCodes {
		s.telemetryLocked(th, "llm_request", map[string]any{"model": "test", "attempt": 1})
		s.telemetryLocked(th, "llm_request", map[string]any{"model": "test", "attempt": 2})
		s.telemetryLocked(th, "fallback_triggered", map[string]any{"from": "test", "to": "test-2"})
	}
	r.cur.Status = strp("failed")
	r.cur.Content = strp("Error: " + reason)
	s.sendRecordLocked(th, r.cur, "role", "content", "status", "created_at")
	why := "Error: " + reason
	if b.StopReasonCodes {
		why = "step_error"
	}
	s.telemetryLocked(th, "stopped", map[string]any{"reason": why, "side": "a"})
	r.endRun(StateFailed, why)
}

// Run states of thread_status.
const (
	StateIdle    = "idle"
	StateRunning = "running"
	StateFailed  = "failed"
)

// startLocked starts the next assistant message (pending).
func (r *Reply) startLocked() {
	s := r.s
	m := s.newMsgLocked(r.th, "assistant", nil)
	m.Status = strp("pending")
	r.cur = m
	r.text.Reset()
	r.final = nil
	s.telemetryLocked(r.th, "llm_request", map[string]any{"model": "test", "attempt": 1})
	s.sendRecordLocked(r.th, m, "role", "content", "status", "depth", "created_at")
}

// completeLocked settles the current message with its content.
func (r *Reply) completeLocked() {
	c := r.text.String()
	if r.final != nil {
		c = *r.final
	}
	r.cur.Content = strp(c)
	r.cur.Status = strp("completed")
	r.s.telemetryLocked(r.th, "llm_response", map[string]any{"tokens": len(c) / 4, "latency": 1})
	r.s.sendRecordLocked(r.th, r.cur, "role", "content", "status", "tool_calls", "created_at")
}

// kickLocked starts the next queued run of th when none goes.
func (s *Server) kickLocked(th *thread) {
	if th.run != nil || len(th.queue) == 0 || th.deleted || s.closed {
		return
	}
	q := th.queue[0]
	th.queue = th.queue[1:]
	ctx, cancel := context.WithCancel(s.ctx)
	r := &Reply{s: s, th: th, ctx: ctx, cancel: cancel, user: q.user}
	th.run = r
	agent := s.cfg.Agent
	if q.agent != nil {
		agent = q.agent
	}
	if u := q.user; u != nil {
		// Persisted: the runtime stores it and says so.
		u.Status = strp("completed")
		u.Metadata = nil
		s.sendRecordLocked(th, u, "role", "content", "attachments", "created_at")
	}
	s.setStatusLocked(th, StateRunning, nil)
	s.telemetryLocked(th, "step_started", map[string]any{"step": 0, "side": "a"})
	r.startLocked()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		agent(r)
		r.finish()
	}()
}

// finish completes the reply after its agent returned (nothing after a
// stop or a failure).
func (r *Reply) finish() {
	defer r.s.mu.Unlock()
	if !r.live() {
		return
	}
	s, th := r.s, r.th
	r.completeLocked()
	s.eventLocked(th, "kv_changed", map[string]any{"key": "last_reply", "deleted": false})
	why := "Returns content (no tool calls)"
	if s.cfg.Behaviour.StopReasonCodes {
		why = "stop_on_response"
	}
	s.telemetryLocked(th, "stopped", map[string]any{"reason": why, "side": "a"})
	s.telemetryLocked(th, "step_completed", map[string]any{"step": r.step, "stopped": true})
	r.endRun(StateIdle, why)
}

// endRun ends the run with a status and starts the next queued one. Call
// with the server's lock held.
func (r *Reply) endRun(state, reason string) {
	s, th := r.s, r.th
	r.ended = true
	if th.run == r {
		th.run = nil
	}
	s.setStatusLocked(th, state, &reason)
	s.kickLocked(th)
	s.notifyLocked()
}

// stopLocked is a user stop: the run is aborted, its pending message
// fails, the "Execution stopped by user" system message follows (no
// stopped telemetry), and with thread_status the thread goes idle.
func (s *Server) stopLocked(th *thread) {
	r := th.run
	if r == nil {
		return
	}
	r.cancel()
	if r.cur != nil && r.cur.Status != nil && *r.cur.Status == "pending" {
		r.cur.Status = strp("failed")
		if r.text.Len() > 0 {
			r.cur.Content = strp(r.text.String())
		}
		s.sendRecordLocked(th, r.cur, "role", "content", "tool_calls", "created_at", "status")
	}
	sys := s.newMsgLocked(th, "system", strp("Execution stopped by user"))
	sys.Status = strp("completed")
	s.sendRecordLocked(th, sys, "role", "content", "created_at", "status")
	r.endRun(StateIdle, "aborted_by_user")
}
