package request

import "sync"

// MaxPendingEvents bounds the backend events (renders, speech, reasoning,
// tool reports) queued or running on the handler. A run that finds it
// full waits before it reads on (backpressure): the backend's stream
// waits in the socket, not in memory — the push client's
// MaxPendingFrames, for the request wires.
const MaxPendingEvents = 64

// queue runs handler calls on one goroutine, in order. push never blocks;
// pushEvent waits while MaxPendingEvents events are queued or running.
type queue struct {
	mu      sync.Mutex
	q       []queued
	events  int           // event calls queued or running
	room    chan struct{} // closed when events drops below MaxPendingEvents
	wake    chan struct{}
	done    chan struct{}
	closing bool
}

type queued struct {
	fn    func()
	event bool
}

func newQueue() *queue {
	d := &queue{wake: make(chan struct{}, 1), done: make(chan struct{})}
	go d.loop()
	return d
}

// push queues a call that is not a backend event (a state change, a wait's
// end); it never blocks. Calls after close are dropped.
func (d *queue) push(fn func()) { d.add(queued{fn: fn}) }

// pushEvent queues a backend event's call once fewer than
// MaxPendingEvents are queued or running. It returns false, queuing
// nothing, when stop is closed first.
func (d *queue) pushEvent(fn func(), stop <-chan struct{}) bool {
	for {
		d.mu.Lock()
		if d.events < MaxPendingEvents || d.closing {
			d.mu.Unlock()
			break
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
	d.add(queued{fn: fn, event: true})
	return true
}

func (d *queue) add(it queued) {
	d.mu.Lock()
	if d.closing {
		d.mu.Unlock()
		return
	}
	d.q = append(d.q, it)
	if it.event {
		d.events++
	}
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// eventDone counts an event call finished and wakes a waiting run.
func (d *queue) eventDone() {
	d.mu.Lock()
	d.events--
	if d.room != nil && d.events < MaxPendingEvents {
		close(d.room)
		d.room = nil
	}
	d.mu.Unlock()
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
		for _, it := range batch {
			it.fn()
			if it.event {
				d.eventDone()
			}
		}
	}
}

// close lets queued calls run, then stops; runs waiting for room go on
// (their calls are dropped).
func (d *queue) close() {
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
