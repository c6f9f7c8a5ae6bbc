package callqueue

import "sync"

// MaxPending bounds the counted calls (backend events: renders, speech,
// reasoning, tool reports) queued or running: past it, PushEvent and
// WaitRoom wait — the push client's MaxPendingFrames, for the other wires.
const MaxPending = 64

// Queue runs calls on one goroutine, in order. Push and PushCounted never
// block; PushEvent and WaitRoom wait while MaxPending counted calls are
// queued or running. All methods may be called from any goroutine;
// PushEvent and WaitRoom must not be called from a queued call (they would
// wait for themselves).
type Queue struct {
	mu      sync.Mutex
	q       []queued
	spare   []queued      // the last batch's slice, reused (no allocation per frame)
	counted int           // counted calls queued or running
	room    chan struct{} // closed when counted drops below MaxPending
	wake    chan struct{}
	done    chan struct{}
	closing bool
}

type queued struct {
	fn      func()
	counted bool
}

// New starts a queue's goroutine; Close stops it.
func New() *Queue {
	d := &Queue{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go d.loop()
	return d
}

// Push queues a call that is not a backend event (a state change, a
// wait's end). Calls after Close are dropped.
func (d *Queue) Push(fn func()) { d.add(queued{fn: fn}) }

// PushCounted queues a backend event's call without waiting (for a wire
// that queues under a lock); the reader applies the bound with WaitRoom.
func (d *Queue) PushCounted(fn func()) { d.add(queued{fn: fn, counted: true}) }

// PushEvent queues a backend event's call once fewer than MaxPending are
// queued or running. It returns false, queuing nothing, when stop is
// closed first.
func (d *Queue) PushEvent(fn func(), stop <-chan struct{}) bool {
	if !d.WaitRoom(stop) {
		return false
	}
	d.PushCounted(fn)
	return true
}

// WaitRoom returns true once fewer than MaxPending counted calls are
// queued or running (or the queue is closing), false when stop is closed
// first.
func (d *Queue) WaitRoom(stop <-chan struct{}) bool {
	for {
		d.mu.Lock()
		if d.counted < MaxPending || d.closing {
			d.mu.Unlock()
			return true
		}
		if d.room == nil {
			d.room = make(chan struct{})
		}
		room := d.room
		d.mu.Unlock()
		select {
		case <-room:
		case <-stop:
			return false
		}
	}
}

func (d *Queue) add(it queued) {
	d.mu.Lock()
	if d.closing {
		d.mu.Unlock()
		return
	}
	d.q = append(d.q, it)
	if it.counted {
		d.counted++
	}
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// countedDone counts a counted call finished and wakes the waiters.
func (d *Queue) countedDone() {
	d.mu.Lock()
	d.counted--
	if d.room != nil && d.counted < MaxPending {
		close(d.room)
		d.room = nil
	}
	d.mu.Unlock()
}

func (d *Queue) loop() {
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
		d.q = d.spare[:0]
		d.mu.Unlock()
		for i, it := range batch {
			it.fn()
			if it.counted {
				d.countedDone()
			}
			batch[i] = queued{} // no reference kept to a run call
		}
		d.mu.Lock()
		d.spare = batch
		d.mu.Unlock()
	}
}

// Close lets queued calls run, then stops; waiters go on (WaitRoom
// returns true, and calls queued after Close are dropped).
func (d *Queue) Close() {
	d.mu.Lock()
	d.closing = true
	if d.room != nil {
		close(d.room)
		d.room = nil
	}
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
	<-d.done
}
