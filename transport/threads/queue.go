package threads

import (
	"context"
	"sync"
)

// queueRoom is how many handler calls may wait before the stream reader
// stops reading the socket (waitRoom): a runtime that floods frames
// faster than the handler takes them waits in the socket, not in memory.
const queueRoom = 64

// queue runs handler calls on one goroutine, in the order they were
// pushed; push never blocks (it may be called under the transport's
// lock, and from the handler itself). The stream reader calls waitRoom
// between frames, outside every lock, to hold the socket back while the
// handler is behind. close lets the queued calls run, then stops.
type queue struct {
	mu      sync.Mutex
	q       []func()
	pending int // pushed and not yet returned, including the running batch
	wake    chan struct{}
	room    chan struct{} // signalled when pending drops
	done    chan struct{}
	closing bool
}

func newQueue() *queue {
	d := &queue{wake: make(chan struct{}, 1), room: make(chan struct{}, 1), done: make(chan struct{})}
	go d.loop()
	return d
}

func (d *queue) push(fn func()) {
	d.mu.Lock()
	if d.closing {
		d.mu.Unlock()
		return
	}
	d.q = append(d.q, fn)
	d.pending++
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// waitRoom returns once fewer than queueRoom calls are pending, the queue
// is closing, or ctx is done. It must not be called from a handler call
// (it would wait for itself).
func (d *queue) waitRoom(ctx context.Context) {
	for {
		d.mu.Lock()
		ok := d.pending < queueRoom || d.closing
		d.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-d.room:
		case <-d.done:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (d *queue) loop() {
	defer close(d.done)
	for {
		d.mu.Lock()
		for len(d.q) == 0 {
			if d.closing {
				d.mu.Unlock()
				return
			}
			d.mu.Unlock()
			<-d.wake
			d.mu.Lock()
		}
		batch := d.q
		d.q = nil
		d.mu.Unlock()
		for _, fn := range batch {
			fn()
			d.mu.Lock()
			d.pending--
			d.mu.Unlock()
			select {
			case d.room <- struct{}{}:
			default:
			}
		}
	}
}

func (d *queue) close() {
	d.mu.Lock()
	d.closing = true
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	<-d.done
}
