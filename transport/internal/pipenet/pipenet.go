// Package pipenet is an in-process network for tests that run real HTTP
// servers under testing/synctest: a net.Listener whose connections are
// net.Pipe ends, and an http.Client that dials it. Blocking on a pipe is
// durable blocking, so synctest.Wait and fake time work across the wire.
package pipenet

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
)

// Listener hands out the server ends of dialed pipes.
type Listener struct {
	conns chan net.Conn
	once  sync.Once
	done  chan struct{}
}

// Listen returns a listener; create it (and serve it) inside the bubble.
func Listen() *Listener {
	return &Listener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept waits for the next dial.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close stops Accept and later dials.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr is a placeholder address.
func (l *Listener) Addr() net.Addr { return addr{} }

// Dial connects to the listener.
func (l *Listener) Dial(ctx context.Context, _, _ string) (net.Conn, error) {
	c, s := net.Pipe()
	select {
	case l.conns <- s:
		return c, nil
	case <-l.done:
		return nil, errors.New("pipenet: listener closed")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Client is an HTTP client whose every connection dials l.
func (l *Listener) Client() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: l.Dial, DisableKeepAlives: false}}
}

// Serve runs h on l until it is closed; the returned func closes both.
func Serve(h http.Handler) (*Listener, func()) {
	l := Listen()
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	return l, func() {
		srv.Close()
		l.Close()
	}
}

type addr struct{}

func (addr) Network() string { return "pipe" }
func (addr) String() string  { return "pipe" }
