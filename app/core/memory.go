package core

import (
	"log/slog"
	"sync"

	"yui/app/memory"
)

// memories are the characters' memories (app/memory), one store per
// preset id opened on first use and shared by her request transport and
// the settings window, so the two never write the file over each other.
type memories struct {
	dir string
	log *slog.Logger

	mu sync.Mutex
	m  map[string]*memory.Store
}

// of is preset id's memory; a file that cannot be read is logged and the
// store starts empty (it is not written over until it reads).
func (ms *memories) of(id string) *memory.Store {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if s := ms.m[id]; s != nil {
		return s
	}
	s, err := memory.Open(memory.Path(ms.dir, id), ms.log.With("preset", id), nil)
	if err != nil {
		ms.log.Warn("memory.open_failed", "preset", id, "err", err.Error())
	}
	if ms.m == nil {
		ms.m = map[string]*memory.Store{}
	}
	ms.m[id] = s
	return s
}
