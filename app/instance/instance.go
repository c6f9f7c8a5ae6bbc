package instance

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Limits of the hand-over exchange.
const (
	// MaxRequest bounds one request line (the arguments of a launch).
	MaxRequest = 64 << 10
	// IOTimeout bounds reading a request and writing its reply.
	IOTimeout = 5 * time.Second
	// StartWait is how long Send waits for a core that holds the lock
	// but does not listen yet (it is starting).
	StartWait = 3 * time.Second
)

var (
	// ErrRunning: another process holds the config dir's lock.
	ErrRunning = errors.New("instance: Yui is already running for this config dir")
	// ErrNotRunning: nothing holds the lock, so there is no one to hand to.
	ErrNotRunning = errors.New("instance: Yui is not running for this config dir")
)

// Request is what a second launch sends.
type Request struct {
	// Args are the launch's command-line arguments (without the program
	// name).
	Args []string `json:"args"`
	// WaitExit asks the primary to keep the connection open until it
	// exits (yui --quit returns when Yui is gone).
	WaitExit bool `json:"wait_exit,omitempty"`
	// Pid is the sender's process id, for the log.
	Pid int `json:"pid"`
}

// Reply answers a Request. Error is empty on success.
type Reply struct {
	Pid   int    `json:"pid"`
	Error string `json:"error,omitempty"`
}

// Handler acts on a hand-over and returns nil or the error the sender
// prints. It runs on the connection's goroutine; requests may arrive
// concurrently.
type Handler func(Request) error

// Primary is this process's hold on a config dir: the lock and the
// listening socket.
type Primary struct {
	dir     string
	lock    *lockFile
	ln      net.Listener
	addr    string
	cleanup func() // removes the socket's private directory (bind)
	log     *slog.Logger

	mu      sync.Mutex
	closed  bool
	held    map[net.Conn]struct{} // WaitExit senders, closed by Close
	serving sync.WaitGroup
}

// Acquire makes this process the config dir's one instance: it creates
// dir (0700) if needed, takes the lock and listens. It returns ErrRunning
// when another process holds the lock. A socket file left by a killed core
// is removed (the lock proves its owner is gone).
func Acquire(dir string) (*Primary, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("instance: config dir %s: %w", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("instance: create %s: %w", abs, err)
	}
	lf, err := lockDir(abs)
	if err != nil {
		return nil, err
	}
	addr, cleanup, err := bind(abs)
	if err != nil {
		lf.release()
		return nil, fmt.Errorf("instance: socket for %s: %w", abs, err)
	}
	ln, err := listen(addr)
	if err != nil {
		cleanup()
		lf.release()
		return nil, fmt.Errorf("instance: listen on %s: %w", addr, err)
	}
	// The lock file says who holds it, for people reading the directory;
	// nothing depends on its contents.
	lf.describe(fmt.Sprintf("{\"pid\":%d,\"socket\":%q}\n", os.Getpid(), addr))
	return &Primary{dir: abs, lock: lf, ln: ln, addr: addr, cleanup: cleanup, log: slog.New(slog.DiscardHandler), held: map[net.Conn]struct{}{}}, nil
}

// Addr is where the primary listens (a socket path or a pipe name).
func (p *Primary) Addr() string { return p.addr }

// Serve answers hand-overs with h until Close, logging each to log (nil:
// no log). It returns at once; the accept loop runs on its own goroutine.
// Call it once.
func (p *Primary) Serve(h Handler, log *slog.Logger) {
	if log != nil {
		p.log = log
	}
	p.serving.Go(func() {
		for {
			c, err := p.ln.Accept()
			if err != nil {
				p.mu.Lock()
				closed := p.closed
				p.mu.Unlock()
				if !closed {
					p.log.Warn("instance_accept_failed", "err", err.Error())
				}
				return
			}
			p.serving.Go(func() { p.answer(c, h) })
		}
	})
}

func (p *Primary) answer(c net.Conn, h Handler) {
	keep := false
	defer func() {
		if !keep {
			c.Close()
		}
	}()
	if err := checkPeer(c); err != nil {
		p.log.Warn("instance_refused", "err", err.Error())
		return
	}
	c.SetDeadline(time.Now().Add(IOTimeout))
	req, err := readRequest(c)
	if err != nil {
		p.log.Warn("instance_bad_request", "err", err.Error())
		writeLine(c, Reply{Pid: os.Getpid(), Error: err.Error()})
		return
	}
	p.log.Info("instance_handover", "from_pid", req.Pid, "args", strings.Join(req.Args, " "))
	rep := Reply{Pid: os.Getpid()}
	if err := h(req); err != nil {
		rep.Error = err.Error()
	}
	if req.WaitExit && rep.Error == "" {
		p.mu.Lock()
		if !p.closed {
			p.held[c] = struct{}{}
			keep = true
		}
		p.mu.Unlock()
	}
	if err := writeLine(c, rep); err != nil {
		p.log.Warn("instance_reply_failed", "err", err.Error())
	}
	c.SetDeadline(time.Time{})
}

// Close stops listening, releases the lock and closes the connections of
// senders waiting for this process to exit (call it last, when everything
// is flushed). It waits for requests being answered.
func (p *Primary) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	err := p.ln.Close()
	p.serving.Wait()
	p.mu.Lock()
	for c := range p.held {
		c.Close()
	}
	p.held = nil
	p.mu.Unlock()
	p.cleanup()
	p.lock.release()
	return err
}

// Send hands args to the instance running for dir and returns its reply
// (an error the primary reported comes back as an error). With waitExit it
// returns only once that instance has exited (or ctx ends). ErrNotRunning
// means no process holds the lock.
func Send(ctx context.Context, dir string, args []string, waitExit bool) (Reply, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Reply{}, fmt.Errorf("instance: config dir %s: %w", dir, err)
	}
	startBy := time.Now().Add(StartWait)
	var c net.Conn
	var addr string
	for {
		addr = address(abs)
		c, err = dial(ctx, addr)
		if err == nil {
			break
		}
		// Nobody listens: either nobody runs, or the holder of the lock
		// is between taking it and listening.
		held, lerr := locked(abs)
		if lerr != nil {
			return Reply{}, lerr
		}
		if !held {
			return Reply{}, ErrNotRunning
		}
		if time.Now().After(startBy) {
			return Reply{}, fmt.Errorf("instance: Yui holds %s but does not answer on %s: %w", filepath.Join(abs, lockName), addr, err)
		}
		select {
		case <-ctx.Done():
			return Reply{}, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	defer c.Close()
	if err := checkPeer(c); err != nil {
		return Reply{}, err
	}
	stop := context.AfterFunc(ctx, func() { c.SetDeadline(time.Now()) })
	defer stop()
	c.SetDeadline(time.Now().Add(IOTimeout))
	if err := writeLine(c, Request{Args: args, WaitExit: waitExit, Pid: os.Getpid()}); err != nil {
		return Reply{}, fmt.Errorf("instance: send to %s: %w", addr, err)
	}
	br := bufio.NewReader(io.LimitReader(c, MaxRequest))
	line, err := br.ReadBytes('\n')
	if err != nil {
		return Reply{}, fmt.Errorf("instance: read reply from %s: %w", addr, err)
	}
	var rep Reply
	if err := json.Unmarshal(line, &rep); err != nil {
		return Reply{}, fmt.Errorf("instance: reply from %s: %w", addr, err)
	}
	if rep.Error != "" {
		return rep, fmt.Errorf("instance: Yui (pid %d) refused: %s", rep.Pid, rep.Error)
	}
	if waitExit {
		c.SetDeadline(time.Time{})
		// The primary closes the connection as it exits.
		io.Copy(io.Discard, br)
		if ctx.Err() != nil {
			return rep, fmt.Errorf("instance: waiting for Yui (pid %d) to exit: %w", rep.Pid, ctx.Err())
		}
	}
	return rep, nil
}

func readRequest(c net.Conn) (Request, error) {
	br := bufio.NewReader(io.LimitReader(c, MaxRequest+1))
	line, err := br.ReadBytes('\n')
	if len(line) > MaxRequest {
		return Request{}, fmt.Errorf("request longer than %d bytes", MaxRequest)
	}
	if err != nil {
		return Request{}, fmt.Errorf("read request: %w", err)
	}
	var req Request
	if err := json.Unmarshal(line, &req); err != nil {
		return Request{}, fmt.Errorf("request: %w", err)
	}
	return req, nil
}

func writeLine(c net.Conn, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = c.Write(append(b, '\n'))
	return err
}

// lockName is the lock file in the config dir.
const lockName = "instance.lock"

// key names the config dir in socket and pipe names.
func key(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:8])
}
