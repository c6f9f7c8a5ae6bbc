package threadserver

import (
	"time"
)

// thread is one thread's state. Guarded by the server's mu.
type thread struct {
	id      string
	agent   string
	created time.Time
	msgs    []*msg
	socks   map[*sock]bool
	queue   []queued
	run     *Reply
	deleted bool
	// status and reason are the run status thread_status reports.
	status string
	reason *string
	since  int64
	stats  Stats
}

// queued is a run waiting: a posted user message, or an injected run.
type queued struct {
	user  *msg
	agent Agent
}

// msg is one message record.
type msg struct {
	ID          string
	Role        string
	Content     *string
	ToolCalls   *string
	ToolCallID  *string
	ToolStatus  *string
	Name        *string
	CreatedAt   int64 // µs
	Status      *string
	Depth       int
	Silent      bool
	Attachments []map[string]any
	Metadata    map[string]any
	Reasoning   *string
	// posted are the attachments as the client posted them (tests).
	posted []map[string]any
}

func (m *msg) attachments() any {
	if m.Attachments == nil {
		return nil
	}
	return m.Attachments
}

// full is the complete record, every member GET returns.
func (m *msg) full() map[string]any {
	var md any
	if m.Metadata != nil {
		md = m.Metadata
	}
	return map[string]any{
		"id": m.ID, "role": m.Role, "content": m.Content, "name": m.Name, "tool_calls": m.ToolCalls,
		"tool_call_id": m.ToolCallID, "tool_status": m.ToolStatus, "log_id": nil, "created_at": m.CreatedAt,
		"silent": m.Silent, "parent_id": nil, "depth": m.Depth, "status": m.Status,
		"reasoning_content": m.Reasoning, "reasoning_details": nil, "attachments": m.attachments(),
		"metadata": md, "subagent_id": nil,
	}
}

func messageFrame(m *msg, data map[string]any) map[string]any {
	return map[string]any{"type": "message_data", "message_id": m.ID, "depth": m.Depth, "data": data}
}

func strp(s string) *string { return &s }

// newMsgLocked adds a message to th (created now).
func (s *Server) newMsgLocked(th *thread, role string, content *string) *msg {
	s.seq++
	// created_at in µs, kept increasing within a thread.
	at := s.cfg.Now().UnixMicro()
	if n := len(th.msgs); n > 0 && th.msgs[n-1].CreatedAt >= at {
		at = th.msgs[n-1].CreatedAt + 1
	}
	m := &msg{ID: newID(), Role: role, Content: content, CreatedAt: at}
	th.msgs = append(th.msgs, m)
	if len(th.msgs) > 2000 {
		th.msgs = th.msgs[len(th.msgs)-2000:]
	}
	return m
}

// sendRecordLocked broadcasts m: the full record, or the partial one
// (members) 0.41.12 sends.
func (s *Server) sendRecordLocked(th *thread, m *msg, members ...string) {
	full := m.full()
	if s.cfg.Behaviour.FullRecords {
		s.broadcastLocked(th, messageFrame(m, full))
		return
	}
	part := map[string]any{}
	for _, k := range members {
		part[k] = full[k]
	}
	part["id"] = m.ID
	s.broadcastLocked(th, messageFrame(m, part))
}

// setStatusLocked records the run status and, with thread_status, sends it.
func (s *Server) setStatusLocked(th *thread, state string, reason *string) {
	th.status, th.reason = state, reason
	th.since = s.cfg.Now().UnixMilli()
	if s.cfg.Behaviour.ThreadStatus {
		s.broadcastLocked(th, s.statusFrame(th))
	}
}

func (s *Server) statusFrame(th *thread) map[string]any {
	st := th.status
	if st == "" {
		st = "idle"
	}
	return map[string]any{"type": "thread_status", "status": st, "reason": th.reason, "since": th.since}
}

// telemetryLocked broadcasts a telemetry frame of kind.
func (s *Server) telemetryLocked(th *thread, kind string, fields map[string]any) {
	f := map[string]any{"type": kind, "timestamp": s.cfg.Now().UnixMilli()}
	for k, v := range fields {
		f[k] = v
	}
	s.broadcastLocked(th, f)
}

// eventLocked broadcasts an event frame.
func (s *Server) eventLocked(th *thread, name string, data any) {
	f := map[string]any{"type": "event", "eventType": name, "timestamp": s.cfg.Now().UnixMilli()}
	if data != nil || s.cfg.Behaviour.EventDataNull {
		f["data"] = data
	}
	s.broadcastLocked(th, f)
}

// deleteLocked deletes a thread: its run ends, its sockets close (at once,
// or, as 0.41.12 does, late for sockets that never sent anything).
func (s *Server) deleteLocked(id string) bool {
	th := s.threads[id]
	if th == nil || th.deleted {
		return false
	}
	th.deleted = true
	if th.run != nil {
		th.run.cancel()
		th.run = nil
	}
	th.queue = nil
	linger := s.cfg.Behaviour.DeleteLinger
	for k := range th.socks {
		if linger == 0 || k.spoke() {
			k.closeWith(1000, "Thread deleted")
			continue
		}
		k := k
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			t := time.NewTimer(linger)
			defer t.Stop()
			select {
			case <-t.C:
				k.closeWith(1000, "Thread deleted")
			case <-s.ctx.Done():
			case <-k.done:
			}
		}()
	}
	s.notifyLocked()
	return true
}
