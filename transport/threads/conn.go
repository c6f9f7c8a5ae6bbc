package threads

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"yui/transport"
	"yui/transport/httpapi"
)

// socket is one connection attempt and, once caught up, the open stream.
// Its fields are guarded by the transport's mu.
type socket struct {
	ctx      context.Context // cancelled on detach; bounds its HTTP calls and dial
	cancel   context.CancelFunc
	done     chan struct{} // closed when run returns
	settled  chan struct{} // closed when it is ready or ended
	once     sync.Once
	checkKey bool // check the key before connecting
	conn     *websocket.Conn
	hb       *time.Timer
	pinged   bool
	open     bool // caught up: the socket is ready
}

func (s *socket) settle() { s.once.Do(func() { close(s.settled) }) }

// endKind says how an attempt or a socket ended.
type endKind int

const (
	endRetry         endKind = iota // a failure worth another attempt
	endDeleted                      // the thread is gone
	endRefused                      // the key was refused
	endAgent                        // the agent to make a thread for is unknown
	endNotConfigured                // no usable base URL
)

// Backoff is the delay before reconnect attempt n since the last open
// (n = 0 first): 1 s doubling up to 30 s, spread by ±25 % with r in
// [0, 1).
func Backoff(failed int, r float64) time.Duration {
	d := ReconnectFirst
	for i := 0; i < failed && d < ReconnectCap; i++ {
		d *= 2
	}
	d = min(d, ReconnectCap)
	return time.Duration(float64(d) * (1 + ReconnectJitter*(2*r-1)))
}

// attemptLocked drops the socket there is and starts a new attempt (or
// reports not configured).
func (t *Transport) attemptLocked() {
	t.stopRetryLocked()
	if s := t.cur; s != nil {
		t.detachLocked(s)
	}
	if strings.TrimSpace(t.cfg.Endpoint()) == "" || (t.thread == "" && strings.TrimSpace(t.cfg.Agent()) == "") {
		t.log.Info("threads.not_configured")
		t.setStateLocked(transport.StateChange{To: transport.StateDisconnected, Err: transport.ErrNotConfigured, Code: -1})
		return
	}
	ctx, cancel := context.WithCancel(t.ctx)
	s := &socket{ctx: ctx, cancel: cancel, done: make(chan struct{}), settled: make(chan struct{}), checkKey: t.closes >= KeyCheckAfter}
	if s.checkKey {
		t.closes = 0
	}
	prev := t.lastDone
	t.lastDone = s.done
	t.cur = s
	t.setStateLocked(transport.StateChange{To: transport.StateConnecting, Code: -1})
	t.wg.Add(1)
	go t.run(s, prev)
}

// detachLocked drops s: its calls end and its socket closes.
func (t *Transport) detachLocked(s *socket) {
	if t.cur == s {
		t.cur = nil
	}
	s.cancel()
	if s.hb != nil {
		s.hb.Stop()
	}
	if s.conn != nil {
		_ = s.conn.CloseNow()
	}
}

func (t *Transport) stopRetryLocked() {
	if t.retry != nil {
		t.retry.Stop()
		t.retry = nil
	}
}

// run is one attempt: a thread (made when there is none), a ticket, the
// handshake, the catch-up read, then the stream until it ends. An attempt
// starts only after the previous one ended.
func (t *Transport) run(s *socket, prev chan struct{}) {
	defer t.wg.Done()
	defer close(s.done)
	defer s.settle()
	if prev != nil {
		<-prev
	}
	if s.ctx.Err() != nil {
		return
	}
	end, code, err := t.connect(s)
	if s.ctx.Err() != nil && end == endRetry {
		return // detached: whoever detached it moved on
	}
	t.finish(s, end, code, err)
}

// call bounds one HTTP call of the attempt.
func (t *Transport) call(s *socket) (context.Context, context.CancelFunc) {
	return context.WithTimeout(s.ctx, HTTPWait)
}

// connect runs the attempt to the end of its socket and says how it ended.
func (t *Transport) connect(s *socket) (endKind, int, error) {
	t.mu.Lock()
	thread, key, base := t.thread, t.cfg.Key(), t.cfg.Endpoint()
	t.mu.Unlock()
	api, err := NewAPI(t.hc, base, key)
	if err != nil {
		return endNotConfigured, -1, err
	}
	if s.checkKey {
		ctx, cancel := t.call(s)
		_, err := api.Me(ctx)
		cancel()
		t.log.Info("threads.key_checked", "refused", IsRefused(err), "err", errText(err))
		if IsRefused(err) {
			return endRefused, -1, err
		}
	}
	if thread == "" {
		ctx, cancel := t.call(s)
		id, err := api.CreateThread(ctx, strings.TrimSpace(t.cfg.Agent()), []string{"yui"})
		cancel()
		switch {
		case IsRefused(err):
			return endRefused, -1, err
		case IsNotFound(err):
			return endAgent, -1, err
		case err != nil:
			return endRetry, -1, err
		}
		t.save(id)
		t.mu.Lock()
		if t.cur == s {
			t.thread = id
			t.statusLocked()
		}
		t.mu.Unlock()
		thread = id
	}

	ctx, cancel := t.call(s)
	ticket, err := api.Ticket(ctx, StreamPath(thread))
	cancel()
	header := http.Header{}
	var ae *APIError
	switch {
	case err == nil:
	case IsRefused(err):
		return endRefused, -1, err
	case errors.As(err, &ae) && (ae.Status == http.StatusNotFound || ae.Status == http.StatusMethodNotAllowed):
		// A runtime without tickets: the Bearer header on the upgrade.
		t.log.Info("threads.no_ticket", "status", ae.Status)
		if key != "" {
			header.Set("Authorization", "Bearer "+key)
		}
	default:
		return endRetry, -1, err
	}

	dctx, dcancel := context.WithTimeout(s.ctx, DialWait)
	conn, resp, err := websocket.Dial(dctx, api.StreamURL(thread, ticket), &websocket.DialOptions{HTTPClient: t.hc, HTTPHeader: header})
	dcancel()
	if err != nil {
		return t.dialFailed(s, api, thread, key, resp, err)
	}
	conn.SetReadLimit(-1) // counted by read
	t.mu.Lock()
	if t.cur != s {
		t.mu.Unlock()
		_ = conn.CloseNow()
		return endRetry, -1, context.Canceled
	}
	s.conn = conn
	s.hb = time.AfterFunc(HeartbeatIdle, func() { t.heartbeat(s) })
	t.mu.Unlock()
	t.log.Info("ws_open", "origin", api.Origin(), "thread", thread)

	// The one catch-up read, before any frame is applied.
	t.order.Lock()
	ctx, cancel = t.call(s)
	msgs, err := api.Messages(ctx, thread)
	cancel()
	if err != nil {
		t.order.Unlock()
		_ = conn.CloseNow()
		switch {
		case IsNotFound(err):
			return endDeleted, -1, err
		case IsRefused(err):
			return endRefused, -1, err
		}
		return endRetry, -1, fmt.Errorf("threads: catch-up read: %w", err)
	}
	t.mu.Lock()
	if t.cur == s {
		t.m.catchUp(msgs)
		s.open = true
		t.failures, t.closes, t.problem = 0, 0, ""
		t.statusLocked()
		t.setStateLocked(transport.StateChange{To: transport.StateReady, Code: -1})
	}
	t.mu.Unlock()
	t.order.Unlock()
	s.settle()
	t.log.Info("ws_ready", "thread", thread, "caught_up", len(msgs))

	code, reason, err := t.read(s, conn)
	_ = conn.CloseNow()
	t.log.Info("ws_close", "code", code, "reason", httpapi.OneLine(reason, 120))
	if code == int(websocket.StatusNormalClosure) && strings.EqualFold(strings.TrimSpace(reason), "Thread deleted") {
		return endDeleted, code, ErrThreadDeleted
	}
	return endRetry, code, err
}

// dialFailed says how an attempt whose stream did not open ended: a
// refused or dropped upgrade is asked why (a deleted thread, or the key);
// anything else is retried.
func (t *Transport) dialFailed(s *socket, api *API, thread, key string, resp *http.Response, err error) (endKind, int, error) {
	if s.ctx.Err() != nil {
		return endRetry, -1, err
	}
	refused := false
	switch {
	case resp != nil && resp.StatusCode != http.StatusSwitchingProtocols:
		refused = true
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		code, msg := errorBody(b)
		t.log.Warn("threads.upgrade_refused", "status", resp.StatusCode, "code", transport.RedactKey(code, key), "message", transport.RedactKey(msg, key))
	case !isDialError(err):
		// The handshake was dropped without an answer (a dev server
		// refusing: 1006, no status): a refusal too.
		refused = true
		t.log.Warn("threads.upgrade_dropped", "err", err.Error())
	default:
		t.log.Warn("ws_open_failed", "origin", api.Origin(), "err", err.Error())
	}
	if refused {
		// Why: a deleted thread, or the key.
		ctx, cancel := t.call(s)
		_, terr := api.Thread(ctx, thread)
		cancel()
		switch {
		case IsNotFound(terr):
			return endDeleted, -1, terr
		case IsRefused(terr):
			return endRefused, -1, terr
		}
	}
	return endRetry, -1, fmt.Errorf("threads: open the stream of %s: %w", thread, err)
}

// isDialError reports a connection that was never made (refused, no
// route, no such host): the server is not there, which is no refusal.
func isDialError(err error) bool {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Op == "dial" {
		return true
	}
	var de *net.DNSError
	return errors.As(err, &de)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
