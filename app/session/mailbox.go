package session

import "sync"

// mailbox runs closures one at a time, in order, on its own goroutine: the
// session's actor. Every piece of session state is touched only from it.
type mailbox struct {
	mu      sync.Mutex
	q       []func()
	closing bool
	wake    chan struct{}
	done    chan struct{}
	after   func() // runs after every batch item (drain checks)
}

func newMailbox(after func()) *mailbox {
	m := &mailbox{wake: make(chan struct{}, 1), done: make(chan struct{}), after: after}
	go m.loop()
	return m
}

// post queues fn and reports whether it was accepted (false after close).
func (m *mailbox) post(fn func()) bool {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		return false
	}
	m.q = append(m.q, fn)
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
	return true
}

func (m *mailbox) loop() {
	defer close(m.done)
	for {
		m.mu.Lock()
		for len(m.q) == 0 {
			if m.closing {
				m.mu.Unlock()
				return
			}
			m.mu.Unlock()
			<-m.wake
			m.mu.Lock()
		}
		batch := m.q
		m.q = nil
		m.mu.Unlock()
		for _, fn := range batch {
			fn()
			m.after()
		}
	}
}

// close runs what is queued, then stops the goroutine and waits for it.
func (m *mailbox) close() {
	m.mu.Lock()
	m.closing = true
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
	<-m.done
}
