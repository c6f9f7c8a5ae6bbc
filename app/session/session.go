package session

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"yui/app/clientctx"
	"yui/app/cue"
	"yui/app/delegation"
	"yui/app/playback"
	"yui/app/turnid"
	"yui/transport"
)

// Session is the turn engine of one preset's pet window: it owns the
// preset's transport and turns its events into UI events.
type Session struct {
	opts    Options
	log     *slog.Logger
	turnLog *slog.Logger
	lines   Lines
	vocab   cue.Vocabulary
	now     func() time.Time
	emitFn  func(Event)

	tr     transport.Transport
	player *playback.Player
	ids    *turnid.Counter
	prev   *clientctx.PreviousStore
	board  *delegation.Board
	mb     *mailbox

	// Player events carry the generation they were delivered in; an
	// Interrupt bumps it so events queued before it are dropped.
	pgen atomic.Uint64

	closeOnce sync.Once
	// closing is set when Close starts: turn-wait reports and failed sends
	// of a session being closed are no network failure.
	closing atomic.Bool

	// ---- actor state: touched only on the mailbox goroutine ----
	st actorState
}

// actorState is everything the actor owns.
type actorState struct {
	socket      transport.State
	turns       map[string]*turn // outstanding turns
	closed      recentSet        // turns that got their turn_end
	thinkingOn  bool
	deferred    []Cue // cues waiting for the thinking motion to end
	fillerIndex int
	composer    bool // last composer state emitted
	plate       string
	muted       bool            // barge-in: shown, not voiced
	mutedCut    map[string]bool // the turns the barge-in cut: their late replies stay muted
	turnOrd     uint64
	turnSeq     uint64
	pill        pillState
	reasoning   reasoningState
	attachments []attachment
	delegTimer  *time.Timer
	delegSeq    uint64
	drains      []chan struct{}
	origins     map[string]origin
	lastSent    string // the client turn sent last
	originOrder []string
	closing     bool
}

// New builds a session; nothing connects until Start.
func New(opts Options) (*Session, error) {
	if strings.TrimSpace(opts.Preset.ChatID) == "" {
		return nil, errors.New("session: new: preset has no chat_id")
	}
	if opts.ConfigDir == "" {
		return nil, errors.New("session: new: ConfigDir is blank")
	}
	if opts.Transport == nil {
		return nil, errors.New("session: new: no Transport")
	}
	if opts.Zone == nil {
		opts.Zone = clientctx.LocalZone()
	}
	s := &Session{opts: opts, log: opts.Logger, turnLog: opts.TurnLog, lines: opts.Lines,
		vocab: opts.Vocabulary, now: opts.Now, emitFn: opts.OnEvent}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.turnLog == nil {
		s.turnLog = slog.New(slog.DiscardHandler)
	}
	if len(s.lines.Thinking) == 0 {
		s.lines = EnglishLines()
	}
	if s.vocab.EmotionIDs == nil && s.vocab.MotionIDs == nil {
		s.vocab = cue.Default()
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.emitFn == nil {
		s.emitFn = func(Event) {}
	}
	presetKey := opts.Preset.ID
	if presetKey == "" {
		presetKey = opts.Preset.ChatID
	}
	prev, err := clientctx.OpenPrevious(opts.ConfigDir, presetKey, s.log)
	if err != nil {
		s.log.Warn("previous_turn.open_failed", "err", err.Error())
	}
	s.prev = prev
	hist, err := delegation.OpenHistory(opts.ConfigDir, presetKey, s.log)
	if err != nil {
		s.log.Warn("delegations.history_open_failed", "err", err.Error())
	}
	s.board = delegation.NewBoard(hist, s.now)
	s.ids = turnid.New(s.now)
	s.st.turns = make(map[string]*turn)
	s.st.socket = transport.StateDisconnected

	voice := opts.Voice
	if voice == nil {
		voice = playback.Silent{}
	}
	// Past the queue's bound, backend-started turns' speech goes first:
	// ids this run did not mint. (turnid.Counter is safe to call from
	// the player's lock.)
	s.player = playback.New(playback.Options{Voice: voice, OnEvent: s.playerEvent, Logger: s.log,
		Expendable: func(id string) bool { return !s.ids.IsClientMinted(id) }})
	s.mb = newMailbox(s.checkDrains)

	s.tr = opts.Transport
	return s, nil
}

// Start shows the persisted delegation history and starts the transport.
func (s *Session) Start() {
	s.post(func() { s.emitDelegations() })
	s.tr.Start(handler{s})
}

// Close ends the transport (a push socket closes with 1000), stops playback and every
// timer, and returns when no more events will be delivered. Not from
// inside OnEvent.
func (s *Session) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.closing.Store(true)
		err = s.tr.Close()
		s.player.Close()
		s.mb.post(func() { s.shutdown() })
		s.mb.close()
	})
	if err != nil {
		return fmt.Errorf("session: close: %w", err)
	}
	return nil
}

// post runs fn on the actor.
func (s *Session) post(fn func()) { s.mb.post(fn) }

// postUser runs a user action on the actor ahead of the backend frames
// and other work still queued.
func (s *Session) postUser(fn func()) { s.mb.postUrgent(fn) }

// emit delivers one event; actor only.
func (s *Session) emit(e Event) {
	if s.st.closing {
		return
	}
	s.emitFn(e.stamped(s.now()))
}

func (s *Session) shutdown() {
	s.st.pill.stop()
	if s.st.delegTimer != nil {
		s.st.delegTimer.Stop()
	}
	if err := s.board.Close(); err != nil {
		s.log.Warn("delegations.history_save_failed", "err", err.Error())
	}
	for _, t := range s.st.turns {
		t.stopTimers()
	}
	s.st.closing = true
	for _, ch := range s.st.drains {
		close(ch)
	}
	s.st.drains = nil
}

// ChatID is the conversation id of the session's preset.
func (s *Session) ChatID() string { return s.opts.Preset.ChatID }

// DelegationHistory returns the persisted delegation history, newest first.
// Safe from any goroutine.
func (s *Session) DelegationHistory() []delegation.Item { return s.board.History() }

// WireVocabulary converts the cue vocabulary to the transports' (push
// hello.vocabulary, the cue tool's enums).
func WireVocabulary(v cue.Vocabulary) transport.Vocabulary {
	return transport.Vocabulary{EmotionIDs: v.EmotionIDs, MotionIDs: v.MotionIDs,
		EmotionTextMode: string(v.EmotionTextMode), EmotionTextMap: v.EmotionTextMap}
}

// recentSet remembers the newest closedMemory ids.
type recentSet struct {
	ids   map[string]struct{}
	order []string
}

func (r *recentSet) add(id string) {
	if r.ids == nil {
		r.ids = make(map[string]struct{})
	}
	if _, ok := r.ids[id]; ok {
		return
	}
	r.ids[id] = struct{}{}
	r.order = append(r.order, id)
	if len(r.order) > closedMemory {
		delete(r.ids, r.order[0])
		r.order = r.order[1:]
	}
}

func (r *recentSet) has(id string) bool {
	_, ok := r.ids[id]
	return ok
}
