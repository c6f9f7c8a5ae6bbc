package pulse

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jfreymuth/pulse/proto"
)

// requestTimeout bounds every request's wait for its reply.
const requestTimeout = 5 * time.Second

// conn is one connection to the server, shared by every stream. The
// protocol client's read goroutine calls dispatch; dispatch never blocks
// and never makes a request.
type conn struct {
	nc     net.Conn
	c      *proto.Client
	server string // the address it reached

	syncID atomic.Uint32
	dead   atomic.Bool

	mu      sync.Mutex
	play    map[uint32]*stream
	rec     recordSink     // the one recording of a recording connection
	pending map[uint32]int // credit for a stream not registered yet
}

// dial connects to the first address that answers and authenticates.
func dial(ctx context.Context, spec, appName string) (*conn, error) {
	addrs := serverAddresses(spec)
	if len(addrs) == 0 {
		return nil, errors.New("no server address")
	}
	var errs []error
	for _, a := range addrs {
		c, err := dialOne(ctx, a, appName)
		if err == nil {
			return c, nil
		}
		errs = append(errs, fmt.Errorf("%s: %w", a.addr, err))
	}
	return nil, errors.Join(errs...)
}

func dialOne(ctx context.Context, a address, appName string) (*conn, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	nc, err := d.DialContext(dctx, a.network, a.addr)
	if err != nil {
		return nil, err
	}
	c := &conn{nc: nc, server: a.addr, play: map[uint32]*stream{}, pending: map[uint32]int{}}
	// The callback is in place before the read goroutine starts (Open),
	// so the two never race on it.
	c.c = &proto.Client{Callback: c.dispatch}
	c.c.SetTimeout(requestTimeout)
	c.c.Open(nc)
	var auth proto.AuthReply
	if err := c.c.Request(&proto.Auth{Version: c.c.Version(), Cookie: cookie()}, &auth); err != nil {
		nc.Close()
		return nil, fmt.Errorf("auth: %w", err)
	}
	c.c.SetVersion(auth.Version)
	props := proto.PropList{
		"application.name":       proto.PropListString(appName),
		"application.id":         proto.PropListString("yui"),
		"application.icon_name":  proto.PropListString("audio-speakers"),
		"application.process.id": proto.PropListString(strconv.Itoa(os.Getpid())),
	}
	if err := c.c.Request(&proto.SetClientName{Props: props}, &proto.SetClientNameReply{}); err != nil {
		nc.Close()
		return nil, fmt.Errorf("set client name: %w", err)
	}
	return c, nil
}

// request makes one request; an error that means the connection is gone
// marks it dead.
func (c *conn) request(req proto.RequestArgs, reply proto.Reply) error {
	err := c.c.Request(req, reply)
	if err != nil {
		var perr proto.Error
		if !errors.As(err, &perr) {
			c.kill()
		}
	}
	return err
}

// dispatch runs on the protocol client's read goroutine.
func (c *conn) dispatch(msg any) {
	switch m := msg.(type) {
	case *proto.Request:
		c.mu.Lock()
		s := c.play[m.StreamIndex]
		if s == nil {
			c.pending[m.StreamIndex] += int(m.Length)
		}
		c.mu.Unlock()
		if s != nil {
			s.grant(int(m.Length))
		}
	case *proto.PlaybackStreamKilled:
		c.mu.Lock()
		s := c.play[m.StreamIndex]
		c.mu.Unlock()
		if s != nil {
			s.lose(ErrKilled)
		}
	case *proto.DataPacket:
		c.mu.Lock()
		r := c.rec
		c.mu.Unlock()
		if r != nil {
			r.data(m.Data)
		}
	case *proto.ConnectionClosed:
		c.kill()
	}
}

// ErrKilled is the loss of a stream the server ended (its sink went away).
var ErrKilled = errors.New("pulse: stream killed by the server")

// recordSink takes a recording connection's data; both run on the read
// goroutine and must not block.
type recordSink interface {
	data(b []byte)
	lose()
}

// kill marks the connection dead and fails its streams.
func (c *conn) kill() {
	if c.dead.Swap(true) {
		return
	}
	c.nc.Close()
	c.mu.Lock()
	ps := make([]*stream, 0, len(c.play))
	for _, s := range c.play {
		ps = append(ps, s)
	}
	r := c.rec
	c.mu.Unlock()
	for _, s := range ps {
		s.lose(errConnectionLost)
	}
	if r != nil {
		r.lose()
	}
}

var errConnectionLost = errors.New("pulse: connection to the sound server lost")

func (c *conn) register(s *stream) {
	c.mu.Lock()
	c.play[s.index] = s
	extra := c.pending[s.index]
	delete(c.pending, s.index)
	c.mu.Unlock()
	if extra > 0 {
		s.grant(extra)
	}
}

func (c *conn) unregister(index uint32) {
	c.mu.Lock()
	delete(c.play, index)
	delete(c.pending, index)
	c.mu.Unlock()
}
