package memory

import (
	"log/slog"
	"sync"
)

// Stores are the characters' memories, one Store per preset id opened on
// first use and shared by her request transport and the settings window,
// so the two never write the file over each other.
type Stores struct {
	dir string
	log *slog.Logger
	// changed hears a store's change (the settings window's section).
	changed func()

	mu sync.Mutex
	m  map[string]*Store
}

// NewStores keeps the memories in dir (Path); changed (nil: nobody) is
// told each change of any of them.
func NewStores(dir string, lg *slog.Logger, changed func()) *Stores {
	return &Stores{dir: dir, log: lg, changed: changed, m: map[string]*Store{}}
}

// Of is preset id's memory; a file that cannot be read is logged and the
// store starts empty (it is not written over until it reads).
func (ms *Stores) Of(id string) *Store {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if s := ms.m[id]; s != nil {
		return s
	}
	s, err := Open(Path(ms.dir, id), ms.log.With("preset", id), func(State) {
		if ms.changed != nil {
			ms.changed()
		}
	})
	if err != nil {
		ms.log.Warn("memory.open_failed", "preset", id, "err", err.Error())
	}
	ms.m[id] = s
	return s
}
