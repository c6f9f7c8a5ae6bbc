package request

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"yui/transport"
)

// run is one turn: its rounds, its speech cut into sentences, its idle
// limit. Fields below mu are shared with timers and the engine; the rest
// belong to the turn's goroutine.
type run struct {
	e      *Engine
	id     string
	t      transport.Turn
	base   string
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu        sync.Mutex
	timer     *time.Timer
	seen      bool // an event of the current round arrived
	forgotten bool

	read int64                     // bytes of the turn's answers read (MaxAnswerBytes)
	more map[string]transport.Tool // the turn's Config.MoreTools, by name

	pending    string          // reply text not yet spoken (an unfinished sentence)
	scan       int             // where the next sentence scan of pending starts (completeFrom)
	cues       []transport.Cue // cues waiting for the next sentence
	spoken     strings.Builder // the reply text (its first MaxReplyKept bytes), for the transcript
	replyCut   bool
	rendered   bool
	reasonAll  strings.Builder // the newest MaxReasoningKept bytes at most
	reasonPend strings.Builder
	reasonAt   time.Time
	usage      *transport.Usage
}

func newRun(e *Engine, t transport.Turn, base string) *run {
	ctx, cancel := context.WithCancelCause(context.Background())
	return &run{e: e, id: t.TurnID, t: t, base: base, ctx: ctx, cancel: cancel}
}

// arm starts the idle limit d (a round's first event, or the next one).
func (r *run) arm(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
	}
	if r.forgotten {
		return
	}
	r.timer = time.AfterFunc(d, func() { r.cancel(errIdle) })
}

func (r *run) disarm() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

// activity restarts the idle limit after an event.
func (r *run) activity() {
	r.mu.Lock()
	r.seen = true
	r.mu.Unlock()
	r.arm(BetweenEventsWait)
}

// forget ends the idle limit for good (ForgetTurn).
func (r *run) forget() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.forgotten = true
	if r.timer != nil {
		r.timer.Stop()
		r.timer = nil
	}
}

func (r *run) emit(ev transport.Event) { r.e.emit(ev) }

// text adds reply text and speaks the sentences it completes; an
// unfinished sentence over MaxSentenceBytes is spoken in pieces.
func (r *run) text(delta string) {
	if keepHead(&r.spoken, delta, MaxReplyKept) && !r.replyCut {
		r.replyCut = true
		r.e.log.Warn("request_reply_cut", "turn_id", r.id, "kept_bytes", MaxReplyKept)
	}
	r.pending += delta
	for {
		end, resume := completeFrom(r.pending, r.scan)
		switch {
		case end > 0:
			r.say(r.pending[:end]) // says nothing when it is blank
			r.pending, r.scan = r.pending[end:], resume-end
			return
		case len(r.pending) > MaxSentenceBytes:
			n := sentencePiece(r.pending)
			r.say(r.pending[:n])
			r.pending, r.scan = r.pending[n:], max(0, resume-n)
		default:
			r.scan = resume
			return
		}
	}
}

// say speaks one sentence with the cues waiting for it.
func (r *run) say(sentence string) {
	if strings.TrimSpace(sentence) == "" {
		return
	}
	r.flushReasoning()
	seg := transport.Segment{Cues: r.cues, Speech: strings.TrimSpace(sentence)}
	r.cues = nil
	r.rendered = true
	r.emit(transport.Speech{TurnID: r.id, Segments: []transport.Segment{seg}})
}

// cue keeps a cue for the next sentence (or the end of the reply). The
// cue tool applies to what follows it, so an unfinished sentence before
// the call is spoken first, with the cues it had.
func (r *run) cue(c transport.Cue) {
	if c.IsZero() {
		return
	}
	if rest := strings.TrimSpace(r.pending); rest != "" {
		r.flushReasoning()
		r.emit(transport.Speech{TurnID: r.id, Segments: []transport.Segment{{Cues: r.cues, Speech: rest}}})
		r.cues = nil
		r.pending, r.scan = "", 0
		r.rendered = true
	}
	r.cues = append(r.cues, c)
}

// reasoning adds a delta, sent coalesced.
func (r *run) reasoning(delta string) {
	if delta == "" {
		return
	}
	r.reasonAll.WriteString(delta)
	if r.reasonAll.Len() > MaxReasoningKept {
		kept := keepTail(r.reasonAll.String(), reasoningKeep)
		r.reasonAll = strings.Builder{}
		r.reasonAll.WriteString(kept)
	}
	r.reasonPend.WriteString(delta)
	if now := time.Now(); now.Sub(r.reasonAt) >= reasoningEvery || r.reasonPend.Len() >= reasoningFlushAt {
		r.reasonAt = now
		r.flushReasoning()
	}
}

func (r *run) flushReasoning() {
	if r.reasonPend.Len() == 0 {
		return
	}
	r.emit(transport.Reasoning{TurnID: r.id, Delta: r.reasonPend.String()})
	r.reasonPend.Reset()
}

// render sends what is left of the reply (the unfinished sentence, the
// cues still waiting, the whole reasoning), closing the utterance. A reply
// with nothing left and no reasoning sends nothing.
func (r *run) render() {
	r.flushReasoning()
	rest := strings.TrimSpace(r.pending)
	r.pending, r.scan = "", 0
	if rest == "" && len(r.cues) == 0 && r.reasonAll.Len() == 0 && !r.rendered {
		return
	}
	var segs []transport.Segment
	if rest != "" || len(r.cues) > 0 {
		segs = []transport.Segment{{Cues: r.cues, Speech: rest}}
	}
	r.cues = nil
	r.emit(transport.Render{TurnID: r.id, Source: r.e.name, Segments: segs, Reasoning: r.reasonAll.String()})
	r.rendered = true
}

// loop runs the turn to its end.
func (r *run) loop() {
	e := r.e
	defer e.wg.Done()
	limit := time.AfterFunc(MaxTurnTime, func() { r.cancel(errTurnTime) })
	defer func() {
		limit.Stop()
		r.disarm()
		e.mu.Lock()
		delete(e.runs, r.id)
		e.mu.Unlock()
	}()
	p := e.cfg.Params()
	reserve := (len(p.Card)+len(r.t.ClientContext)+len(r.t.Text))/4 + 1024
	transcript, memory := r.window(p, reserve)
	if r.ctx.Err() != nil {
		r.fail(context.Cause(r.ctx))
		return
	}
	more := r.moreTools()
	x := &Exchange{Base: r.base, Turn: r.t, Params: p, Tools: e.schemas(more), Transcript: transcript, Memory: memory}
	var last any
	for round := 0; ; round++ {
		s := &Stream{r: r}
		if err := r.round(x, s); err != nil {
			r.fail(err)
			return
		}
		last = s.state
		ran := r.answer(s.calls)
		if r.ctx.Err() != nil {
			r.fail(context.Cause(r.ctx))
			return
		}
		if !ran {
			break
		}
		if round == MaxRoundTrips {
			e.log.Warn("request_round_trips_exhausted", "turn_id", r.id, "round_trips", MaxRoundTrips)
			break
		}
		x.Rounds = append(x.Rounds, Round{Text: s.text.String(), Calls: s.calls, State: s.state})
		if x.Memory != "" || e.cfg.Memory != nil {
			x.Memory = e.memoryText() // a fact remembered this round goes with the next
		}
	}
	// The conversation is saved before the turn ends, so a turn sent on
	// its TurnEnd follows on from it.
	e.wire.Done(x, r.spoken.String(), last)
	r.render()
	r.emit(transport.TurnEnd{TurnID: r.id, Usage: r.usage})
	e.log.Info("request_turn_end", "turn_id", r.id, "chars", len(r.spoken.String()))
}

// round sends one request and reads its stream, under the idle limits.
func (r *run) round(x *Exchange, s *Stream) error {
	e := r.e
	for attempt := 0; ; attempt++ {
		body, err := e.wire.Body(x)
		if err != nil {
			return fmt.Errorf("build request: %w", err)
		}
		r.mu.Lock()
		r.seen = false
		r.mu.Unlock()
		r.arm(FirstEventWait)
		rc, err := e.post(r.ctx, r.base, body)
		var se *StatusError
		if errors.As(err, &se) && se.Status == http.StatusBadRequest && attempt == 0 && e.wire.Refused(x, se) {
			e.log.Info("request_adapted", "turn_id", r.id, "status", se.Status)
			continue
		}
		if err != nil {
			return err
		}
		err = e.wire.Read(r.ctx, answerReader{r: rc, read: &r.read}, s)
		rc.Close()
		r.disarm()
		if err == nil {
			err = s.Err()
		}
		return err
	}
}

// fail ends the turn on err, as the spec's table says.
func (r *run) fail(err error) {
	e := r.e
	cause := context.Cause(r.ctx)
	switch {
	case errors.Is(cause, errClosed):
		return // closing is no failure, and nothing is delivered after Close
	case errors.Is(cause, errStopped):
		e.log.Info("request_stopped", "turn_id", r.id)
		r.emit(transport.TurnEnd{TurnID: r.id})
		return
	case errors.Is(cause, errTurnTime):
		r.mu.Lock()
		forgotten := r.forgotten
		r.mu.Unlock()
		if forgotten {
			// The session let go of the turn: its request ends, unheard.
			e.log.Warn("request_stream_bound", "turn_id", r.id, "reason", TurnTooLong, "forgotten", true)
			return
		}
		err = cause
	case errors.Is(cause, errIdle):
		r.mu.Lock()
		forgotten := r.forgotten
		r.mu.Unlock()
		e.log.Warn("network_stall", "stage", stage(r.rendered), "turn_id", r.id)
		r.render()
		if !forgotten {
			e.emitWait(transport.TurnWaitEnded{TurnID: r.id, Rendered: r.rendered, Reason: transport.WaitPassed})
		}
		r.emit(transport.TurnEnd{TurnID: r.id})
		return
	}
	var se *StatusError
	var ste *StreamError
	msg := ""
	switch {
	case errors.As(err, &se):
		msg = r.statusText(se)
	case errors.As(err, &ste):
		if ste.Status != 0 {
			msg = r.statusText(&StatusError{Status: ste.Status, Text: ste.Text})
		}
		if ste.Text == AnswerTooLong || ste.Text == TurnTooLong {
			e.log.Warn("request_stream_bound", "turn_id", r.id, "reason", ste.Text, "read_bytes", r.read)
		}
	case errors.Is(err, io.ErrUnexpectedEOF):
		// A stream cut short: the generic text.
	default:
		// The request did not reach the backend or its answer was lost:
		// the spec's network failure.
		e.log.Warn("network_drop", "stage", stage(r.rendered), "turn_id", r.id, "err", err.Error())
		r.render()
		e.emitWait(transport.TurnWaitEnded{TurnID: r.id, Rendered: r.rendered, Reason: transport.SocketLeftReady})
		r.emit(transport.TurnEnd{TurnID: r.id})
		return
	}
	e.log.Warn("request_failed", "turn_id", r.id, "err", err.Error())
	r.render()
	r.emit(transport.TurnError{TurnID: r.id, Message: msg})
	r.emit(transport.TurnEnd{TurnID: r.id, Usage: r.usage})
}

// statusText is the error line of an HTTP status: the status and the
// server's text, but for a refused key a line naming the character.
func (r *run) statusText(se *StatusError) string {
	switch se.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		name := r.e.cfg.Character
		if name == "" {
			name = "This character"
		}
		return fmt.Sprintf("%s's backend refused the key (HTTP %d). Check the key in Settings → Backend.", name, se.Status)
	case http.StatusTooManyRequests:
		line := "Rate limited (HTTP 429)"
		if ra := RetryAfterText(se.RetryAfter); ra != "" {
			line += ", " + ra
		}
		if se.Text != "" {
			line += ": " + se.Text
		}
		return line
	}
	return se.Error()
}

func stage(rendered bool) string {
	if rendered {
		return "request_stream"
	}
	return "request_wait"
}
