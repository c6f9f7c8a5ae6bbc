package voice

import "sync"

// Mute is an on/off switch several speakers watch: the global mute. The
// zero value is off and ready.
type Mute struct {
	mu   sync.Mutex
	on   bool
	next int
	subs map[int]func(bool)
}

// Set switches the mute; watchers are told when it changed.
func (m *Mute) Set(on bool) {
	m.mu.Lock()
	if m.on == on {
		m.mu.Unlock()
		return
	}
	m.on = on
	fns := make([]func(bool), 0, len(m.subs))
	for _, f := range m.subs {
		fns = append(fns, f)
	}
	m.mu.Unlock()
	for _, f := range fns {
		f(on)
	}
}

// On reports whether the mute is on.
func (m *Mute) On() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.on
}

// watch calls f after every change until the returned stop is called.
func (m *Mute) watch(f func(bool)) (stop func()) {
	if m == nil {
		return func() {}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.subs == nil {
		m.subs = map[int]func(bool){}
	}
	id := m.next
	m.next++
	m.subs[id] = f
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		delete(m.subs, id)
	}
}
