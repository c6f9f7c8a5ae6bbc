package console

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
)

// stats is what /stats reports: the process's resource use, for soak and
// chaos runs that check it stays flat.
type stats struct {
	Goroutines int
	HeapBytes  uint64 // live heap after a collection
	RSSBytes   uint64 // resident set size; 0 when unknown (no /proc)
}

// readStats collects garbage, returns freed memory to the OS, then
// measures.
func readStats() stats {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return stats{Goroutines: runtime.NumGoroutine(), HeapBytes: ms.HeapAlloc, RSSBytes: residentBytes()}
}

// residentBytes reads the resident set size from /proc/self/statm.
func residentBytes() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// printStats writes a stats event (--json) or line.
func (p *printer) stats(s stats) {
	if p.json {
		p.raw(map[string]any{"event": "stats", "ts": p.now().UnixMilli(), "goroutines": s.Goroutines,
			"heap_bytes": s.HeapBytes, "rss_bytes": s.RSSBytes})
		return
	}
	p.line(fmt.Sprintf("  stats: %d goroutines, heap %.1f MB, rss %.1f MB", s.Goroutines,
		float64(s.HeapBytes)/(1<<20), float64(s.RSSBytes)/(1<<20)))
}
