package threads

import (
	"encoding/json"
	"slices"
	"strings"

	"yui/transport"
	"yui/transport/httpapi"
)

// frame applies one stream frame.
func (m *model) frame(f frame) {
	switch f.Type {
	case TypeThreadStatus:
		m.threadStatus(f.State, f.Reason)
	case TypeMessageData:
		if f.Depth > 0 || f.MessageID == "" {
			return
		}
		r := m.recs.get(f.MessageID, m.keep)
		mem := m.recs.merge(r, f.Data, m.keep)
		if mem == nil {
			m.log.Warn("frame_malformed", "frame_type", f.Type, "field", "data")
			return
		}
		m.message(r, mem)
	case TypeMessageChunk:
		if f.Depth > 0 || f.MessageID == "" {
			return
		}
		m.chunk(f.MessageID, f.Chunk)
	case TypeReasoningChunk:
		if f.Depth > 0 || f.Chunk == "" {
			return
		}
		t := m.ownerOf(f.MessageID)
		if t == nil || t.state == turnEnded {
			return
		}
		if t.reason.Len()+len(f.Chunk) <= maxReasoning {
			t.reason.WriteString(f.Chunk)
		}
		m.emit(transport.Reasoning{TurnID: t.id, Delta: f.Chunk})
	case TypeEvent:
		m.log.Info("threads.event", "name", httpapi.OneLine(f.EventName, 80), "bytes", f.EventSize)
	case TypeStepStarted:
		if !m.statusEver {
			m.start()
		}
	case TypeStopped:
		if !m.statusEver {
			failed := failedReason(f.Reason) || (m.active != nil && m.active.failed && !m.active.userStop)
			m.runEnd(failed, f.Reason)
		}
	case TypeToolStarted, TypeToolCompleted:
		t := m.start()
		if t.state == turnEnded || f.Tool == "" {
			return
		}
		st := "running"
		if f.Type == TypeToolCompleted {
			st = "done"
			if toolFailed(f.Status) {
				st = "failed"
			}
		}
		m.emit(transport.ToolStatus{TurnID: t.id, State: st, ToolID: httpapi.OneLine(f.Tool, 80)})
	default:
		// Other telemetry (llm_request, llm_response, step_completed,
		// fallback_triggered, validation_failed, …) is advisory.
	}
}

// threadStatus applies the authoritative run status.
func (m *model) threadStatus(state, reason string) {
	m.statusEver = true
	m.log.Info("threads.status", "state", state, "reason", httpapi.OneLine(reason, 80))
	switch state {
	case StateRunning:
		m.start()
	case StateIdle:
		m.runEnd(false, reason)
	case StateFailed:
		m.runEnd(true, reason)
	}
}

// message applies one message_data whose members are mem.
func (m *model) message(r *record, mem map[string]json.RawMessage) {
	if r.silent() {
		return
	}
	switch r.role() {
	case "user":
		m.user(r, mem)
	case "assistant":
		m.assistant(r, mem)
	case "system":
		if c, _ := r.str("content"); strings.TrimSpace(c) == StoppedByUser {
			m.userStopped()
		}
	default:
		if r.role() == "" && m.drafts[r.id] != nil {
			m.assistant(r, mem)
		}
	}
}

// user applies a user message: its run starts once the message is
// persisted (a frame that does not say pending or queued).
func (m *model) user(r *record, mem map[string]json.RawMessage) {
	st, _ := strIn(mem, "status")
	if st == "pending" || st == "failed" || queuedIn(mem) {
		return
	}
	if t := m.byUser[r.id]; t != nil {
		if !t.started {
			// A turn stopped while queued still silences its run.
			m.activate(t)
		}
		return
	}
	if slices.Contains(m.foreign, r.id) {
		return
	}
	m.foreign = append(m.foreign, r.id)
	if len(m.foreign) > maxRemembered {
		m.foreign = m.foreign[1:]
	}
	m.activate(m.newBackend())
}

// assistant applies an assistant message record.
func (m *model) assistant(r *record, mem map[string]json.RawMessage) {
	d := m.draftFor(r.id)
	if d == nil {
		return
	}
	st, isStr := strIn(mem, "status")
	_, present := mem["status"]
	switch {
	case !present, st == "pending":
		// still being written (a member the frame lacks is unknown)
	case st == "failed":
		m.fail(d)
	case st == "completed", !isStr:
		// completed, or a record with no status (null): settled
		c, ok := r.str("content")
		m.terminal(d, c, ok)
	}
}

func (m *model) fail(d *draft) {
	if d == nil || d.done {
		return
	}
	d.done, d.failed = true, true
	m.drop(d) // its spoken sentences stay: a retry may repeat them
	if d.t != nil {
		d.t.failed = true
	}
}

// userStopped applies the system message a user stop adds: on a runtime
// without thread_status it ends the run (not failed).
func (m *model) userStopped() {
	if m.active != nil {
		m.active.userStop = true
	}
	if !m.statusEver {
		m.runEnd(false, "stopped by user")
	}
}

// ownerOf is the turn a message's output belongs to.
func (m *model) ownerOf(messageID string) *turn {
	if d := m.drafts[messageID]; d != nil {
		return d.t
	}
	return m.start()
}

// draftFor is the draft of an assistant message, made for the run going
// now; nil when the run already streams maxDraftsPerRun messages. A new
// message of a turn whose earlier message stopped mid-way with painted
// text (a provider retry) takes that message as its alias.
func (m *model) draftFor(id string) *draft {
	if d := m.drafts[id]; d != nil {
		return d
	}
	t := m.start()
	if len(t.drafts) >= maxDraftsPerRun {
		if !m.runFull {
			m.runFull = true
			m.log.Warn("threads.drafts_over", "turn_id", t.id, "limit", maxDraftsPerRun)
		}
		return nil
	}
	d := &draft{id: id, t: t}
	for i := len(t.drafts) - 1; i >= 0; i-- {
		p := t.drafts[i]
		if len(p.spoken) > 0 && (!p.done || p.failed) {
			d.alias = p
			break
		}
	}
	t.drafts = append(t.drafts, d)
	m.drafts[id] = d
	return d
}

// chunk appends streamed content and speaks the sentences it finishes.
// Each chunk costs what its own bytes do: the scan goes on from where the
// last one stopped, and only the unfinished sentence is kept.
func (m *model) chunk(id, text string) {
	d := m.draftFor(id)
	if d == nil || d.done || d.t.state == turnEnded || text == "" || d.gap || d.over {
		return
	}
	d.size += len(text)
	switch {
	case d.size > maxDraft:
		m.giveUp(d, "message", maxDraft)
		return
	case m.held+len(text) > maxDraftsBytes:
		m.giveUp(d, "drafts", maxDraftsBytes)
		return
	}
	d.tail = append(d.tail, text...)
	m.held += len(text)
	done, cut, resume := cutFrom(d.tail, d.scan, false)
	if cut > 0 {
		m.held -= cut
		d.tail = append(d.tail[:0], d.tail[cut:]...)
	}
	d.scan = resume - cut
	m.speak(d, done, true)
}

// giveUp stops streaming d: it is spoken from its terminal record (what of
// it was not spoken yet), and what it held is freed.
func (m *model) giveUp(d *draft, bound string, limit int) {
	d.over = true
	m.drop(d)
	m.log.Warn("threads.draft_over", "message_id", httpapi.OneLine(d.id, 80), "bound", bound, "limit", limit)
}

// terminal applies a message's terminal record: its content is
// authoritative, and what of it was not yet spoken is spoken now.
func (m *model) terminal(d *draft, content string, known bool) {
	if d == nil || d.done {
		return
	}
	d.done = true
	t := d.t
	if t == nil || t.state == turnEnded {
		m.drop(d)
		return
	}
	t.failed = false // a message completed after a failed one (a retry)
	if !known {
		// No content: what streamed is all there is.
		if !d.gap && !d.over {
			tail, _, _ := cutFrom(d.tail, d.scan, true)
			m.drop(d)
			m.speak(d, tail, true)
		}
		return
	}
	painted := slices.Clone(d.spoken)
	if a := d.alias; a != nil && d.aliasPos < len(a.spoken) {
		painted = append(painted, a.spoken[d.aliasPos:]...)
	}
	m.drop(d)
	m.speak(d, unspoken(content, painted), false)
}

// speak sends sentences of d's turn as one Speech, one segment each. With
// matchAlias, sentences repeating the alias's painted text are skipped.
func (m *model) speak(d *draft, sentences []string, matchAlias bool) {
	t := d.t
	if t == nil || t.state == turnEnded || len(sentences) == 0 {
		return
	}
	var segs []transport.Segment
	for _, s := range sentences {
		n := keyOf(s)
		if a := d.alias; matchAlias && a != nil {
			if d.aliasPos < len(a.spoken) && a.spoken[d.aliasPos] == n {
				d.aliasPos++
				d.spoken = append(d.spoken, n)
				continue
			}
			d.alias = nil // it says something else: it is not a repeat
		}
		d.spoken = append(d.spoken, n)
		segs = append(segs, transport.Segment{Speech: s})
	}
	if len(segs) == 0 {
		return
	}
	t.rendered = true
	m.emit(transport.Speech{TurnID: t.id, Segments: segs})
}
