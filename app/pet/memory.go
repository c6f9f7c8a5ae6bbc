package pet

import (
	"yui/app/memory"
	"yui/transport"
)

// memoryTools are remember and forget for a character on a request wire
// with a memory (push and Standard Agents backends keep their own).
func memoryTools(cfg Config) []transport.Tool {
	if cfg.Memory == nil || !IsRequestWire(cfg.Preset.ChatAPI) {
		return nil
	}
	return cfg.Memory.Tools()
}

// wireMemory is the memory a request transport sends (nil without one:
// never a typed nil in the interface).
func wireMemory(m *memory.Store) transport.Memory {
	if m == nil {
		return nil
	}
	return m
}
