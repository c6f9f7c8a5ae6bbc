package threads

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"yui/transport"
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
		m.log.Warn("threads.run_failed", "turn_id", t.id, "reason", oneLine(reason, 300))
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

// ---- frames ----

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
		m.log.Info("threads.event", "name", oneLine(f.EventName, 80), "bytes", f.EventSize)
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
		m.emit(transport.ToolStatus{TurnID: t.id, State: st, ToolID: oneLine(f.Tool, 80)})
	default:
		// Other telemetry (llm_request, llm_response, step_completed,
		// fallback_triggered, validation_failed, …) is advisory.
	}
}

// threadStatus applies the authoritative run status.
func (m *model) threadStatus(state, reason string) {
	m.statusEver = true
	m.log.Info("threads.status", "state", state, "reason", oneLine(reason, 80))
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
	m.log.Warn("threads.draft_over", "message_id", oneLine(d.id, 80), "bound", bound, "limit", limit)
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

// ---- catch-up ----

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
