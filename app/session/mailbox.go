package session

import "sync"

// maxQueuedFrames bounds the backend frames waiting in the mailbox: past
// it, postFrame waits (the push client's dispatcher then holds its own
// bounded few, and its read loop stops reading the socket).
const maxQueuedFrames = 64

// mailbox runs closures one at a time, in order, on its own goroutine: the
// session's actor. Every piece of session state is touched only from it.
//
// It has two lanes. User actions (postUrgent: a typed or spoken turn,
// stop, barge-in, reset) run before anything else still queued, so they
// never wait behind a backlog of backend frames: at most behind the one
// item running, and behind one more when the previous item was a user
// action too — the lanes take turns then, so actions that keep coming
// cannot starve the rest (a state change the UI must show). Everything
// else (post, postFrame) runs in arrival order; postFrame is for backend
// frames and waits while maxQueuedFrames of them are queued.
type mailbox struct {
	mu      sync.Mutex
	urgent  []func()
	q       []mailItem
	frames  int           // frames in q
	room    chan struct{} // closed when frames drops below the bound
	closing bool
	wake    chan struct{}
	done    chan struct{}
	after   func() // runs after every item (drain checks)
	// lastUrgent: the item taken last was a user action; the next one
	// comes from the other lane when it has one.
	lastUrgent bool
}

type mailItem struct {
	fn    func()
	frame bool
}

func newMailbox(after func()) *mailbox {
	m := &mailbox{wake: make(chan struct{}, 1), done: make(chan struct{}), after: after}
	go m.loop()
	return m
}

// post queues fn and reports whether it was accepted (false after close).
func (m *mailbox) post(fn func()) bool { return m.add(mailItem{fn: fn}) }

// postUrgent queues a user action ahead of everything not yet started.
// User actions keep their order among themselves.
func (m *mailbox) postUrgent(fn func()) bool {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		return false
	}
	m.urgent = append(m.urgent, fn)
	m.mu.Unlock()
	m.signal()
	return true
}

// postFrame queues a backend frame's handling, first waiting while
// maxQueuedFrames frames are queued. It must not be called from the
// actor. It returns false after close.
func (m *mailbox) postFrame(fn func()) bool {
	for {
		m.mu.Lock()
		if m.closing {
			m.mu.Unlock()
			return false
		}
		if m.frames < maxQueuedFrames {
			m.mu.Unlock()
			return m.add(mailItem{fn: fn, frame: true})
		}
		if m.room == nil {
			m.room = make(chan struct{})
		}
		room := m.room
		m.mu.Unlock()
		<-room
	}
}

func (m *mailbox) add(it mailItem) bool {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		return false
	}
	m.q = append(m.q, it)
	if it.frame {
		m.frames++
	}
	m.mu.Unlock()
	m.signal()
	return true
}

func (m *mailbox) signal() {
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// next takes the next item, urgent first; ok is false once closed and
// empty.
func (m *mailbox) next() (fn func(), ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for len(m.urgent) == 0 && len(m.q) == 0 {
		if m.closing {
			return nil, false
		}
		m.mu.Unlock()
		<-m.wake
		m.mu.Lock()
	}
	if len(m.urgent) > 0 && (!m.lastUrgent || len(m.q) == 0) {
		fn = m.urgent[0]
		m.urgent[0] = nil
		m.urgent = m.urgent[1:]
		m.lastUrgent = true
		return fn, true
	}
	m.lastUrgent = false
	it := m.q[0]
	m.q[0] = mailItem{}
	m.q = m.q[1:]
	if it.frame {
		m.frames--
		if m.room != nil && m.frames < maxQueuedFrames {
			close(m.room)
			m.room = nil
		}
	}
	return it.fn, true
}

func (m *mailbox) loop() {
	defer close(m.done)
	for {
		fn, ok := m.next()
		if !ok {
			return
		}
		fn()
		m.after()
	}
}

// close runs what is queued, then stops the goroutine and waits for it.
// Frames waiting for room are refused.
func (m *mailbox) close() {
	m.mu.Lock()
	m.closing = true
	if m.room != nil {
		close(m.room)
		m.room = nil
	}
	m.mu.Unlock()
	m.signal()
	<-m.done
}
