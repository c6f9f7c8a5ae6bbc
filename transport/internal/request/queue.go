package request

import "sync"

// queue runs handler calls on one goroutine, in order; push never blocks.
type queue struct {
	mu      sync.Mutex
	q       []func()
	wake    chan struct{}
	done    chan struct{}
	closing bool
}

func newQueue() *queue {
	d := &queue{wake: make(chan struct{}, 1), done: make(chan struct{})}
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
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
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
		}
	}
}

// close lets queued calls run, then stops.
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
