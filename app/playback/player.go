package playback

import (
	"context"
	"log/slog"
	"sync"

	"yui/app/cue"
)

// Options configures a Player.
type Options struct {
	// Voice speaks sentences. Required.
	Voice Voice
	// Shown paces sentences that are shown but not voiced (muted, or the
	// voice failed). Nil means Silent{} (instant).
	Shown Voice
	// Ahead is how many sentences past the playing one may synthesise ahead.
	// Zero means 2; a negative value means none.
	Ahead int
	// OnEvent receives every event; see the concurrency contract. Nil drops
	// events.
	OnEvent func(Event)
	// Logger gets voice failures and dropped speech. Nil means
	// slog.Default().
	Logger *slog.Logger
	// MaxQueued and MaxQueuedBytes bound the reply sentences queued and
	// not yet started (bound.go); zero means DefaultMaxQueued and
	// DefaultMaxQueuedBytes.
	MaxQueued      int
	MaxQueuedBytes int
	// Expendable reports whether a turn's queued speech goes first when
	// the queue is full (the session: backend-started turns). It is called
	// with the player's lock held, from the goroutine calling Speech or
	// Render: it must be quick and must not call the player. Nil: every
	// turn is dropped oldest first alike.
	Expendable func(turnID string) bool
}

// Player plays utterances in order. Create it with New and stop it with
// Close.
type Player struct {
	voice, shown Voice
	ahead        int
	onEvent      func(Event)
	log          *slog.Logger
	limitItems   int
	limitBytes   int
	isExpendable func(turnID string) bool

	emitMu sync.Mutex // held while events are delivered; taken before mu

	mu        sync.Mutex
	gen       uint64
	genCtx    context.Context
	genCancel context.CancelFunc
	queue     []*utterance
	waiting   []silentCue // cues waiting on a boundary
	due       []silentCue // cues to fire at once
	current   *item       // the sentence being prepared or played
	// interrupted are utterances another turn's frame closed, kept for
	// their heard text until their turn's next frame (or its end).
	interrupted []heardSoFar
	playCancel  context.CancelFunc
	muted       bool
	idle        bool // no sentence played since the last idle event
	closed      bool
	// pendHint and pendHintBytes are at least the queued sentences not
	// yet started (and their bytes): noteAdded trims when they pass a bound.
	pendHint, pendHintBytes int

	wake chan struct{}
	stop chan struct{}
	done chan struct{}
}

// New starts a player.
func New(o Options) *Player {
	p := &Player{
		voice:        o.Voice,
		shown:        o.Shown,
		ahead:        o.Ahead,
		onEvent:      o.OnEvent,
		log:          o.Logger,
		limitItems:   o.MaxQueued,
		limitBytes:   o.MaxQueuedBytes,
		isExpendable: o.Expendable,
		idle:         true,
		wake:         make(chan struct{}, 1),
		stop:         make(chan struct{}),
		done:         make(chan struct{}),
	}
	if p.shown == nil {
		p.shown = Silent{}
	}
	if p.ahead == 0 {
		p.ahead = 2
	} else if p.ahead < 0 {
		p.ahead = 0
	}
	if p.onEvent == nil {
		p.onEvent = func(Event) {}
	}
	if p.log == nil {
		p.log = slog.Default()
	}
	p.genCtx, p.genCancel = context.WithCancel(context.Background())
	go p.run()
	return p
}

// Speech adds the segments of one speech frame to the turn's open
// utterance, opening one when needed.
func (p *Player) Speech(turnID string, segs []Segment) {
	p.add(turnID, segs, false)
}

// Render adds the segments of one render frame to the turn's open
// utterance (or a new one) and closes it. It returns how many sentences
// it queued to play: 0 for silence, for sentences that all repeat what the
// utterance's speech frames queued, and after Close.
func (p *Player) Render(turnID string, segs []Segment) int {
	return p.add(turnID, segs, true)
}

// EndUtterance closes the turn's open utterance, if any. The sentences
// already queued finish playing.
func (p *Player) EndUtterance(turnID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.takeInterrupted(turnID)
	if u := p.openUtterance(); u != nil && u.turnID == turnID {
		u.closed = true
		p.signal()
	}
}

// CloseOpen closes the open utterance, whatever its turn (the socket left
// ready). The sentences already queued finish playing.
func (p *Player) CloseOpen() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if u := p.openUtterance(); u != nil {
		u.closed = true
		p.signal()
	}
}

// SetMuted switches between voiced and shown-only playback. Muting stops
// the voice of the sentence playing now; it still gets its speech_end.
func (p *Player) SetMuted(on bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.muted = on
	if on {
		if p.playCancel != nil {
			p.playCancel()
		}
		if p.current != nil && p.current.fut != nil && !p.current.started {
			p.current.fut.cancel()
		}
		p.hush()
	}
	p.signal()
}

// Muted reports whether playback is shown-only.
func (p *Player) Muted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.muted
}

// Owed reports whether reply speech is playing or queued (client lines
// queued with Say do not count).
func (p *Player) Owed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.owed()
}

// Idle reports whether nothing is playing, queued, due or waiting on a
// boundary.
func (p *Player) Idle() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return !p.busy() && len(p.due) == 0 && len(p.waiting) == 0
}

// Interrupt drops everything queued and returns what each dropped
// utterance had spoken and still owed, in queue order.
func (p *Player) Interrupt() []Cut { return p.InterruptFenced(nil) }

// InterruptFenced is Interrupt that also runs fence, when not nil, before
// any event can be delivered again: every event OnEvent receives before
// fence runs was made before the interrupt, every one after it was made
// after it (the Idle the cut leads to among them). fence must not call the
// player.
func (p *Player) InterruptFenced(fence func()) []Cut {
	p.emitMu.Lock()
	defer p.emitMu.Unlock()
	if fence != nil {
		defer fence() // runs before emitMu is released
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return nil
	}
	p.interrupted = nil // the interrupted turns are stopped too
	var cuts []Cut
	for _, u := range p.queue {
		if u.line != "" {
			continue // the client's own line is no part of the reply
		}
		if c, ok := u.cut(); ok {
			cuts = append(cuts, c)
		}
	}
	p.genCancel()
	p.gen++
	p.genCtx, p.genCancel = context.WithCancel(context.Background())
	p.queue, p.waiting, p.due = nil, nil, nil
	p.current, p.playCancel = nil, nil
	p.pendHint, p.pendHintBytes = 0, 0
	p.signal()
	p.hush()
	return cuts
}

// hush stops the sound a returned clip may still make (Husher).
func (p *Player) hush() {
	if h, ok := p.voice.(Husher); ok {
		h.Hush()
	}
}

// Close stops the player. Queued speech is dropped without events.
func (p *Player) Close() {
	p.emitMu.Lock()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.emitMu.Unlock()
		return
	}
	p.closed = true
	p.genCancel()
	close(p.stop)
	p.mu.Unlock()
	p.emitMu.Unlock()
	p.hush()
	<-p.done
}

func (p *Player) add(turnID string, segs []Segment, render bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0
	}
	segs = p.fitFrame(turnID, segs)
	wasOwed := p.owed()
	u := p.openUtterance()
	if u != nil && u.turnID != turnID {
		u.closed = true // another turn's frame closes the open utterance
		// The turn's reply goes on: its later render may still repeat
		// the sentences heard so far, and they are not said twice.
		p.interrupted = append(p.interrupted, heardSoFar{turnID: u.turnID, heard: u.heard, lastFrame: u.lastFrame})
		if len(p.interrupted) > maxInterrupted {
			p.interrupted = p.interrupted[1:]
		}
		u = nil
	}
	created := false
	if u == nil {
		u = &utterance{turnID: turnID}
		if prev, ok := p.takeInterrupted(turnID); ok {
			u.heard, u.lastFrame = prev.heard, prev.lastFrame
		}
		created = true
	}
	pl := u.add(segs, render)
	if render {
		u.closed = true
	}
	if created && (len(u.items) > 0 || !render) {
		p.queue = append(p.queue, u)
	}
	for _, sc := range pl.silent {
		if wasOwed || sc.after > 0 {
			p.waiting = append(p.waiting, sc)
		} else {
			p.due = append(p.due, sc)
		}
	}
	p.noteAdded(pl.items)
	p.prefetch()
	p.signal()
	return len(pl.items)
}

// maxInterrupted bounds the utterances remembered after another turn's
// frame closed them.
const maxInterrupted = 8

// takeInterrupted removes and returns the remembered utterance of turnID
// that another turn's frame closed. Call with mu held.
func (p *Player) takeInterrupted(turnID string) (heardSoFar, bool) {
	for i, h := range p.interrupted {
		if h.turnID == turnID {
			p.interrupted = append(p.interrupted[:i], p.interrupted[i+1:]...)
			return h, true
		}
	}
	return heardSoFar{}, false
}

// heardSoFar is what an utterance closed by another turn's frame had
// queued, for repeat detection when its turn's reply goes on.
type heardSoFar struct {
	turnID, heard, lastFrame string
}

// openUtterance returns the last queued utterance when it is still open.
func (p *Player) openUtterance() *utterance {
	if n := len(p.queue); n > 0 && !p.queue[n-1].closed {
		return p.queue[n-1]
	}
	return nil
}

// owed reports whether reply speech is playing or queued.
func (p *Player) owed() bool {
	if p.current != nil && p.current.line == "" {
		return true
	}
	for _, u := range p.queue {
		if u.line == "" && u.owed() {
			return true
		}
	}
	return false
}

// busy reports whether anything, client lines included, is playing or queued.
func (p *Player) busy() bool {
	if p.current != nil {
		return true
	}
	for _, u := range p.queue {
		if u.owed() {
			return true
		}
	}
	return false
}

func (p *Player) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// fire delivers events; called with emitMu held and mu not held.
func (p *Player) fire(evs ...Event) {
	for _, ev := range evs {
		p.onEvent(ev)
	}
}

func cueEvent(turnID string, c cue.Cue) Event {
	return Event{Kind: CueFired, TurnID: turnID, Cue: c}
}
