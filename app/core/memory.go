package core

import (
	"errors"
	"log/slog"
	"sync"

	"yui/app/core/mindui"
	"yui/app/memory"
	"yui/app/settings"
)

// memories are the characters' memories (app/memory), one store per
// preset id opened on first use and shared by her request transport and
// the settings window, so the two never write the file over each other.
type memories struct {
	dir string
	log *slog.Logger
	// changed hears a store's change (the settings window's section);
	// set once before the first store opens.
	changed func()

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
	s, err := memory.Open(memory.Path(ms.dir, id), ms.log.With("preset", id), func(memory.State) {
		if ms.changed != nil {
			ms.changed()
		}
	})
	if err != nil {
		ms.log.Warn("memory.open_failed", "preset", id, "err", err.Error())
	}
	if ms.m == nil {
		ms.m = map[string]*memory.Store{}
	}
	ms.m[id] = s
	return s
}

// mindHost is what the "What she remembers" section asks of the core.
type mindHost struct{ c *Core }

func (h mindHost) Memory(id string) mindui.Memory { return h.c.mem.of(id) }

// SaveMCP saves her servers and answers through the settings window's
// save path: the core then makes her anew (mcpChanged).
func (h mindHost) SaveMCP(id string, servers []settings.MCPServer, grants settings.MCPGrants) error {
	_, _, err := settingsHost(h).Save(func(s *settings.Settings) error {
		for i := range s.Presets {
			if s.Presets[i].ID == id {
				s.Presets[i].MCPServers, s.Presets[i].MCPGrants = servers, grants
				return nil
			}
		}
		return errors.New("the character is gone")
	})
	return err
}
