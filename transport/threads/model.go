package threads

import (
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"yui/transport"
	"yui/transport/httpapi"
)

// Bounds of the model (every buffer a runtime can fill has one).
const (
	// maxDraft bounds the streamed text of one message; past it the
	// message is spoken from its terminal record.
	maxDraft = 1 << 20
	// maxDraftsBytes bounds what all drafts hold together (their
	// unfinished sentences); a draft that would take them past it is
	// given up likewise. Drafts are freed when their message settles and
	// when the run ends.
	maxDraftsBytes = 4 << 20
	// maxDraftsPerRun bounds the messages one run may stream; the frames
	// of further message ids are dropped (logged once).
	maxDraftsPerRun = 256
	// maxReasoning bounds the reasoning kept for one turn's closing render.
	maxReasoning = 256 << 10
	// maxRemembered bounds the ids of settled drafts and foreign user
	// messages kept to recognise their late frames.
	maxRemembered = 256
)

type turnState int

const (
	turnQueued turnState = iota // posted, its run not started
	turnActive                  // its run is going
	turnEnded                   // its TurnEnd was sent
)

// turn is one Yui turn on the thread: a client turn (a message this
// client posted) or a backend turn (a run no message of this client
// started).
type turn struct {
	id       string
	client   bool
	userMsg  string // the posted message's id (client turns)
	state    turnState
	started  bool // its run started (it was active)
	stopped  bool // ended by a stop: the rest of its run is dropped
	rendered bool
	failed   bool // the last settled assistant message of its run failed
	userStop bool // the run ended with the user-stop system message
	reason   strings.Builder
	drafts   []*draft
}

// draft is one assistant message's streamed text.
type draft struct {
	id     string
	t      *turn
	tail   []byte        // the streamed text not cut into sentences yet
	scan   int           // where the next scan of tail starts (cutFrom's resume)
	size   int           // bytes streamed in all
	spoken []sentenceKey // sentences spoken (or matched) from it
	gap    bool          // chunks were missed: it is spoken from its terminal record
	over   bool          // over a bound: likewise
	done   bool          // its terminal record arrived
	failed bool
	// alias is an earlier draft of the same turn whose painted text this
	// one may repeat (a provider retry under another id); aliasPos is how
	// many of its sentences this one has matched.
	alias    *draft
	aliasPos int
}

// model is the thread as the client follows it: message records, the
// drafts of assistant messages, and which Yui turn each run belongs to.
// It does no I/O; the transport drives it with frames, the catch-up read
// and the user's actions, under its lock, and it emits transport events
// in order. Not safe for concurrent use.
type model struct {
	log   *slog.Logger
	emit  func(transport.Event)
	ended func(turnID string) // a client turn ended (its wait stops)

	recs       *records
	drafts     map[string]*draft
	held       int      // bytes the drafts' tails hold (≤ maxDraftsBytes)
	runFull    bool     // the active run reached maxDraftsPerRun (logged)
	settled    []string // draft ids of ended turns, oldest first
	queue      []*turn  // client turns posted and not started, in order
	byUser     map[string]*turn
	postedIDs  []string // the keys of byUser, oldest first
	foreign    []string // foreign user messages already started
	active     *turn
	statusEver bool // the runtime sends thread_status
	known      bool // the first catch-up read was done
	seq        int
}

func newModel(log *slog.Logger, emit func(transport.Event), ended func(string)) *model {
	return &model{log: log, emit: emit, ended: ended, recs: newRecords(), drafts: map[string]*draft{}, byUser: map[string]*turn{}}
}

// keep says whether a record may not be evicted: its draft belongs to a
// turn still going, or it is a posted message still waiting.
func (m *model) keep(id string) bool {
	if d := m.drafts[id]; d != nil && d.t != nil && d.t.state != turnEnded {
		return true
	}
	t := m.byUser[id]
	return t != nil && t.state != turnEnded
}

// ---- turns ----

// posted records a client turn whose message the runtime accepted with
// messageID. A turn stopped before the runtime answered is recorded ended:
// its run, when it comes, is silenced.
func (m *model) posted(turnID, messageID string, stopped bool) {
	t := &turn{id: turnID, client: true, userMsg: messageID}
	if stopped {
		t.stopped, t.state = true, turnEnded
	} else {
		m.queue = append(m.queue, t)
	}
	if messageID != "" {
		m.byUser[messageID] = t
		m.postedIDs = append(m.postedIDs, messageID)
		// Forget the oldest ended turns' messages past the bound.
		for len(m.postedIDs) > maxRemembered {
			old := m.postedIDs[0]
			if ot := m.byUser[old]; ot != nil && ot.state != turnEnded {
				break
			}
			delete(m.byUser, old)
			m.postedIDs = m.postedIDs[1:]
		}
	}
}

// outstanding are the client turns not ended, queued first.
func (m *model) outstanding() []*turn {
	out := append([]*turn(nil), m.queue...)
	if a := m.active; a != nil && a.client && a.state != turnEnded {
		out = append(out, a)
	}
	return out
}

func (m *model) find(id string) *turn {
	if a := m.active; a != nil && a.id == id {
		return a
	}
	for _, t := range m.queue {
		if t.id == id {
			return t
		}
	}
	return nil
}

func (m *model) newBackend() *turn {
	m.seq++
	t := &turn{id: fmt.Sprintf("sa-%d", m.seq)}
	m.log.Info("threads.backend_turn", "turn_id", t.id)
	return t
}

// activate makes t the turn of the run now going; the turn that was
// running ends (the runtime runs one execution at a time). An ended
// (stopped) turn may become active: it silences its run.
func (m *model) activate(t *turn) {
	if m.active == t {
		return
	}
	if a := m.active; a != nil {
		m.active = nil
		m.finish(a, false, "")
	}
	// The runtime runs messages in order: turns posted before this one
	// whose runs were not seen are over.
	if i := slices.Index(m.queue, t); i > 0 {
		for _, q := range slices.Clone(m.queue[:i]) {
			m.log.Warn("threads.run_missed", "turn_id", q.id)
			m.finish(q, false, "")
		}
	}
	m.queue = slices.DeleteFunc(m.queue, func(q *turn) bool { return q == t })
	if t.state == turnQueued {
		t.state = turnActive
	}
	t.started = true
	m.active = t
}

// start notes that a run is going: with no turn active, the first queued
// client turn (the runtime runs messages in order) or a new backend turn
// (a scheduled or tool-triggered reply) becomes active.
func (m *model) start() *turn {
	if m.active == nil {
		if len(m.queue) > 0 {
			m.activate(m.queue[0])
		} else {
			m.activate(m.newBackend())
		}
	}
	return m.active
}

// runEnd ends the active turn's run: failed, or idle (replied, stopped).
func (m *model) runEnd(failed bool, reason string) {
	t := m.active
	if t == nil {
		return
	}
	m.active = nil
	m.finish(t, failed, reason)
}

// finish sends the turn's closing render (the unfinished sentences, the
// whole reasoning), its error when failed, and its TurnEnd.
func (m *model) finish(t *turn, failed bool, reason string) {
	m.queue = slices.DeleteFunc(m.queue, func(q *turn) bool { return q == t })
	for _, d := range t.drafts {
		m.settle(d)
	}
	if m.active == nil || m.active == t {
		m.runFull = false
	}
	if t.state == turnEnded {
		m.free(t)
		return
	}
	defer m.free(t)
	t.state = turnEnded
	var segs []transport.Segment
	for _, d := range t.drafts {
		if d.done || d.gap || d.over {
			continue
		}
		tail, _, _ := cutFrom(d.tail, d.scan, true)
		m.drop(d)
		for _, s := range tail {
			segs = append(segs, transport.Segment{Speech: s})
		}
	}
	if len(segs) > 0 || t.reason.Len() > 0 || t.rendered {
		m.emit(transport.Render{TurnID: t.id, Source: Name, Segments: segs, Reasoning: t.reason.String()})
		t.rendered = true
	}
	if failed {
		m.log.Warn("threads.run_failed", "turn_id", t.id, "reason", httpapi.OneLine(reason, 300))
		m.emit(transport.TurnError{TurnID: t.id})
	}
	m.emit(transport.TurnEnd{TurnID: t.id})
	m.log.Info("threads.turn_end", "turn_id", t.id, "failed", failed)
	if t.client {
		m.ended(t.id)
	}
}

// free lets go of what an ended turn's drafts hold: nothing of them is
// spoken any more, and their late frames only need their ids.
func (m *model) free(t *turn) {
	for _, d := range t.drafts {
		m.settle(d)
		m.drop(d)
		if !d.done {
			// Left unfinished by its run: what its record holds of it is
			// a partial snapshot, spoken by nothing any more.
			m.recs.shed(d.id)
		}
		d.spoken, d.alias = nil, nil
	}
	t.drafts = nil
}

// drop frees d's unfinished text.
func (m *model) drop(d *draft) {
	m.held -= len(d.tail)
	d.tail, d.scan = nil, 0
}

// settle remembers a draft of an ended turn so late frames of its message
// stay with it, forgetting the oldest past maxRemembered.
func (m *model) settle(d *draft) {
	if slices.Contains(m.settled, d.id) {
		return
	}
	m.settled = append(m.settled, d.id)
	for len(m.settled) > maxRemembered {
		old := m.settled[0]
		m.settled = m.settled[1:]
		if od := m.drafts[old]; od != nil && od.t != nil && od.t.state == turnEnded {
			delete(m.drafts, old)
		}
	}
}

// stop ends the named turns at once (the stop button, a new turn, barge-in):
// each gets its TurnEnd now and the rest of its run is dropped. It
// reports whether the run going now belongs to one of them.
func (m *model) stop(ids []string) (running bool) {
	for _, id := range ids {
		t := m.find(id)
		if t == nil || t.state == turnEnded {
			continue
		}
		if t == m.active {
			running = true
		}
		m.queue = slices.DeleteFunc(m.queue, func(q *turn) bool { return q == t })
		t.stopped = true
		t.state = turnEnded
		m.emit(transport.TurnEnd{TurnID: t.id})
		m.free(t)
		m.log.Info("threads.turn_stopped", "turn_id", t.id)
		if t.client {
			m.ended(t.id)
		}
	}
	return running
}

// abandon ends every outstanding client turn because the thread is gone
// (deleted, key refused, reset to another thread): lost reports each one
// first (the session's network failure), then it gets its TurnEnd.
func (m *model) abandon(lost func(id string, rendered bool)) {
	for _, t := range m.outstanding() {
		if lost != nil {
			lost(t.id, t.rendered)
		}
		t.state = turnEnded
		m.emit(transport.TurnEnd{TurnID: t.id})
		m.ended(t.id)
	}
	if a := m.active; a != nil && !a.client && a.state != turnEnded {
		m.finish(a, false, "")
	}
	m.queue = nil
	m.active = nil
}

// reset forgets the thread (a new one follows).
func (m *model) reset() {
	m.recs.clear()
	m.drafts = map[string]*draft{}
	m.held, m.runFull = 0, false
	m.settled = nil
	m.byUser = map[string]*turn{}
	m.postedIDs = nil
	m.foreign = nil
	m.active = nil
	m.queue = nil
	m.known = false
}
