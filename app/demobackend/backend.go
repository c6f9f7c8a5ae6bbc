package demobackend

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"yui/transport/push"
	"yui/transport/pushserver"
	"yui/transport/threads/threadserver"
)

// Backend is the scripted demo agent on a pushserver.Server.
type Backend struct {
	cfg Config
	log *slog.Logger
	srv *pushserver.Server
	// threads is the Standard Agents runtime under /api (threads.go).
	threads *threadserver.Server
	ctx     context.Context // ends on Close
	cancel  context.CancelFunc

	mu      sync.Mutex // guards the fields below and orders every frame sent
	chats   map[string]*chat
	closed  bool
	minted  uint64 // backend-started turn ids: demo-<n>
	delegID uint64 // delegation ids: d-<n>
	wg      sync.WaitGroup
}

// New returns a Backend. It serves nothing until mounted or Run.
func New(cfg Config) *Backend {
	cfg = cfg.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	b := &Backend{cfg: cfg, log: cfg.Logger, ctx: ctx, cancel: cancel, chats: make(map[string]*chat)}
	b.srv = pushserver.New(pushserver.Config{
		Key:          cfg.Key,
		MaxTurnBytes: MaxTurnBytes,
		Logger:       cfg.Logger,
		Source:       Source,
		FailureLine:  failureLine,
		Hooks: pushserver.Hooks{
			Connected:  b.onConnected,
			Vocabulary: b.onVocabulary,
			Turn:       b.onTurn,
			Stop:       b.onStop,
			Reset:      b.onReset,
			Playback:   b.onPlayback,
		},
	})
	b.threads = newThreadsServer(b)
	return b
}

// failureLine is what a client that does not accept error frames hears.
func failureLine(message string) string {
	return "Oops, something went wrong on my side: " + message
}

// ServeHTTP serves the push socket; mount it at /ws.
func (b *Backend) ServeHTTP(w http.ResponseWriter, r *http.Request) { b.srv.ServeHTTP(w, r) }

// Server returns the underlying pushserver (for probes and tests).
func (b *Backend) Server() *pushserver.Server { return b.srv }

// Close ends every turn, delegation and socket and waits for them. It is
// safe to call more than once.
func (b *Backend) Close() error {
	b.mu.Lock()
	b.closed = true
	b.cancel()
	b.mu.Unlock()
	err := b.srv.Close()
	_ = b.threads.Close()
	b.wg.Wait()
	return err
}

// goLocked starts fn in a tracked goroutine unless the Backend is closed.
// Needs b.mu.
func (b *Backend) goLocked(fn func()) bool {
	if b.closed {
		return false
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		fn()
	}()
	return true
}

// sendLocked sends one frame, in order with every other frame of the
// Backend. Frames for an absent client are held or dropped by pushserver.
// Needs b.mu.
func (b *Backend) sendLocked(chatID string, f push.Frame) {
	if ch := b.chats[chatID]; ch != nil && ch.sink != nil {
		ch.sink(f)
		return
	}
	var err error
	switch f := f.(type) {
	case push.Render:
		err = b.srv.SendRender(chatID, f)
	case push.Delegations:
		err = b.srv.SetDelegations(chatID, f.Items)
	default:
		err = b.srv.Send(chatID, f)
	}
	if err != nil {
		b.log.Debug("demo.send_dropped", "chat_id", chatID, "frame_type", f.FrameType(), "error", err.Error())
	}
}
