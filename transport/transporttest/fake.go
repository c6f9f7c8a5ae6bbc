package transporttest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"yui/transport"
)

// Fake is a Transport whose methods call the function fields when set and
// otherwise record the call and succeed. Emit and the other delivery
// methods play the backend: they call the handler Start was given, on the
// caller's goroutine, one call at a time. Safe for concurrent use.
type Fake struct {
	// Caps is what Capabilities returns.
	Caps transport.Capabilities

	StartFunc          func(h transport.Handler)
	CloseFunc          func() error
	ReconnectFunc      func()
	EncodeTurnFunc     func(t transport.Turn) ([]byte, error)
	SendTurnFunc       func(ctx context.Context, t transport.Turn) error
	StopFunc           func(ctx context.Context, turnIDs []string) error
	MarkStoppedFunc    func(turnIDs ...string)
	ForgetTurnFunc     func(turnID string)
	ResetFunc          func(ctx context.Context) error
	ReportPlaybackFunc func(ctx context.Context, turnID string) error
	SetVocabularyFunc  func(v transport.Vocabulary)

	mu      sync.Mutex
	deliver sync.Mutex // one handler call at a time
	h       transport.Handler
	turns   []transport.Turn
	stops   [][]string
	marked  []string
	resets  int
	reports []string
}

var _ transport.Transport = (*Fake)(nil)

// PushLike returns a Fake with push's capabilities and the given turn budget.
func PushLike(maxTurnBytes int) *Fake {
	return &Fake{Caps: transport.Capabilities{Images: maxTurnBytes > 0, MaxTurnBytes: maxTurnBytes,
		BackendTurns: true, Delegations: true, PlaybackReports: true, StopFrames: true}}
}

func (f *Fake) Start(h transport.Handler) {
	f.mu.Lock()
	f.h = h
	f.mu.Unlock()
	if f.StartFunc != nil {
		f.StartFunc(h)
	}
}

func (f *Fake) Close() error {
	if f.CloseFunc != nil {
		return f.CloseFunc()
	}
	return nil
}

func (f *Fake) Reconnect() {
	if f.ReconnectFunc != nil {
		f.ReconnectFunc()
	}
}

func (f *Fake) Capabilities() transport.Capabilities {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Caps
}

// EncodeTurn is the JSON of the turn unless EncodeTurnFunc says otherwise.
func (f *Fake) EncodeTurn(t transport.Turn) ([]byte, error) {
	if f.EncodeTurnFunc != nil {
		return f.EncodeTurnFunc(t)
	}
	return json.Marshal(t)
}

func (f *Fake) SendTurn(ctx context.Context, t transport.Turn) error {
	if f.SendTurnFunc != nil {
		if err := f.SendTurnFunc(ctx, t); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.turns = append(f.turns, t)
	f.mu.Unlock()
	return nil
}

func (f *Fake) Stop(ctx context.Context, turnIDs []string) error {
	f.mu.Lock()
	f.stops = append(f.stops, slices.Clone(turnIDs))
	f.marked = append(f.marked, turnIDs...)
	f.mu.Unlock()
	if f.StopFunc != nil {
		return f.StopFunc(ctx, turnIDs)
	}
	return nil
}

func (f *Fake) MarkStopped(turnIDs ...string) {
	f.mu.Lock()
	f.marked = append(f.marked, turnIDs...)
	f.mu.Unlock()
	if f.MarkStoppedFunc != nil {
		f.MarkStoppedFunc(turnIDs...)
	}
}

func (f *Fake) ForgetTurn(turnID string) {
	if f.ForgetTurnFunc != nil {
		f.ForgetTurnFunc(turnID)
	}
}

func (f *Fake) Reset(ctx context.Context) error {
	if f.ResetFunc != nil {
		if err := f.ResetFunc(ctx); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.resets++
	f.mu.Unlock()
	return nil
}

func (f *Fake) ReportPlayback(ctx context.Context, turnID string) error {
	if f.ReportPlaybackFunc != nil {
		if err := f.ReportPlaybackFunc(ctx, turnID); err != nil {
			return err
		}
	}
	f.mu.Lock()
	f.reports = append(f.reports, turnID)
	f.mu.Unlock()
	return nil
}

func (f *Fake) SetVocabulary(v transport.Vocabulary) {
	if f.SetVocabularyFunc != nil {
		f.SetVocabularyFunc(v)
	}
}

// Turns are the turns SendTurn accepted, in order.
func (f *Fake) Turns() []transport.Turn {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.turns)
}

// Stops are the turn id lists Stop was called with.
func (f *Fake) Stops() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.stops)
}

// Marked are the turn ids Stop or MarkStopped named, in order.
func (f *Fake) Marked() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.marked)
}

// Resets counts the Reset calls that succeeded.
func (f *Fake) Resets() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.resets
}

// Reports are the turn ids ReportPlayback accepted.
func (f *Fake) Reports() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.reports)
}

// handler returns the handler Start was given (a no-op one before).
func (f *Fake) handler() transport.Handler {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.h == nil {
		return transport.HandlerFuncs{}
	}
	return f.h
}

// Emit delivers events to the handler, in order.
func (f *Fake) Emit(events ...transport.Event) {
	f.deliver.Lock()
	defer f.deliver.Unlock()
	h := f.handler()
	for _, e := range events {
		h.HandleEvent(e)
	}
}

// SetState delivers a state change (From is filled in by the caller).
func (f *Fake) SetState(c transport.StateChange) {
	f.deliver.Lock()
	defer f.deliver.Unlock()
	f.handler().HandleState(c)
}

// EndWait delivers the end of a turn's wait.
func (f *Fake) EndWait(w transport.TurnWaitEnded) {
	f.deliver.Lock()
	defer f.deliver.Unlock()
	f.handler().HandleTurnWait(w)
}

// ToolRan delivers a tool call and its answer, as a wire reports a client
// tool it ran.
func (f *Fake) ToolRan(c transport.ToolCall, r transport.ToolResult) {
	f.deliver.Lock()
	defer f.deliver.Unlock()
	h := f.handler()
	h.HandleToolCall(c)
	h.HandleToolResult(r)
}
