package cast

import "sync"

// Set is the running characters; its methods may be called from any
// goroutine.
type Set[T any] struct {
	mu      sync.Mutex
	m       map[string]T
	started bool
}

// Get is preset id's character (ok false: none runs).
func (s *Set[T]) Get(id string) (v T, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok = s.m[id]
	return v, ok
}

// Put makes v preset id's character.
func (s *Set[T]) Put(id string, v T) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]T{}
	}
	s.m[id] = v
}

// Take removes preset id's character and returns it (ok false: none ran).
func (s *Set[T]) Take(id string) (v T, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok = s.m[id]
	delete(s.m, id)
	return v, ok
}

// TakeAll removes every character and returns them, in no order.
func (s *Set[T]) TakeAll() []T {
	s.mu.Lock()
	m := s.m
	s.m = nil
	s.mu.Unlock()
	out := make([]T, 0, len(m))
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// IDs are the running characters' preset ids, in no order.
func (s *Set[T]) IDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ids := make([]string, 0, len(s.m))
	for id := range s.m {
		ids = append(ids, id)
	}
	return ids
}

// All are the running characters, in no order.
func (s *Set[T]) All() []T {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]T, 0, len(s.m))
	for _, v := range s.m {
		out = append(out, v)
	}
	return out
}

// Started reports whether Start was called (and Stop not since).
func (s *Set[T]) Started() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started
}

// Start marks the set started and runs start on each character, under
// the set's lock: none is put or taken meanwhile.
func (s *Set[T]) Start(start func(T)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true
	for _, v := range s.m {
		start(v)
	}
}

// Stop marks the set stopped.
func (s *Set[T]) Stop() {
	s.mu.Lock()
	s.started = false
	s.mu.Unlock()
}
