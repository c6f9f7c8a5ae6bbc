package threads

import (
	"encoding/json"
	"strings"
)

// catchUp reconciles the one read after a (re)connect: records merge with
// what is held; messages that settled while the socket was away are
// spoken (what of them was not yet); drafts still pending lost chunks and
// are spoken from their terminal records. The first read of a thread is
// its history: nothing of it is spoken. Without thread_status, whether a
// run is still going is read from the records.
func (m *model) catchUp(raws []json.RawMessage) {
	first := !m.known
	m.known = true
	for _, d := range m.drafts {
		if !d.done {
			d.gap = true
			m.drop(d)
		}
	}
	running, stoppedByUser := false, false
	var last *record
	for _, raw := range raws {
		var id struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(raw, &id) != nil || id.ID == "" {
			continue
		}
		was := m.recs.known(id.ID)
		r := m.recs.get(id.ID, m.keep)
		if m.recs.merge(r, raw, m.keep) == nil || r.depth() > 0 || r.silent() {
			continue
		}
		last = r
		run, stop := m.caughtUp(r, was, first)
		running = running || run
		stoppedByUser = stoppedByUser || stop
	}
	if m.statusEver {
		return // the snapshot that opens the socket says
	}
	if last != nil && (last.role() == "tool" || (last.role() == "assistant" && last.hasToolCalls() && last.status() != "failed")) {
		running = true // the run goes on after its tools
	}
	switch {
	case running:
		if !first || m.active != nil {
			m.start()
		}
	case m.active != nil:
		a := m.active
		if stoppedByUser {
			a.userStop = true
		}
		m.runEnd(a.failed && !a.userStop, "settled while the socket was away")
	}
}

// caughtUp applies one record of the catch-up read (was: held before it;
// first: the thread's first read). It reports an assistant message still
// pending (a run going) and the user's stop notice.
func (m *model) caughtUp(r *record, was, first bool) (running, stoppedByUser bool) {
	st := r.status()
	switch r.role() {
	case "assistant":
		running = st == "pending"
		d := m.drafts[r.id]
		switch {
		case d != nil && d.done:
		case d == nil && (was || first) && st != "pending":
			// history, or a message of a turn already settled
		case st == "pending":
			if d = m.draftFor(r.id); d != nil {
				d.gap = true
				m.drop(d)
			}
		case st == "failed":
			m.fail(m.draftFor(r.id))
		default:
			c, ok := r.str("content")
			m.terminal(m.draftFor(r.id), c, ok)
		}
	case "user":
		if t := m.byUser[r.id]; t != nil && !t.started && st != "pending" && st != "failed" {
			m.activate(t)
		}
	case "system":
		if c, _ := r.str("content"); !was && !first && strings.TrimSpace(c) == StoppedByUser {
			stoppedByUser = true
		}
	}
	return running, stoppedByUser
}
