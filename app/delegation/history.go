package delegation

import (
	"bytes"
	"cmp"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"yui/app/atomicfile"
)

// History is the persisted record of every delegation seen for a preset.
type History struct {
	mu sync.Mutex
	// file is the history's file: after a read failed for a reason other
	// than a missing or corrupt file, it is not written until a later read
	// succeeds (saving would overwrite a file whose items memory never
	// held), so the history is kept in memory only.
	file  atomicfile.JSONFile[historyFile]
	log   *slog.Logger
	items []Item      // ordered by started_at, then id
	dirty bool        // a MergeSoon change is not saved yet
	timer *time.Timer // saves it
	saved time.Time   // the last MergeSoon save
}

// readFile reads the history file; tests swap it to fail reads.
var readFile = os.ReadFile

type historyFile struct {
	Items []Item `json:"items"`
}

// OpenHistory loads the history of preset from dir. The History is never
// nil: a read error leaves it empty and is returned for logging, and the
// file is not written until a later read of it succeeds (Reload, or the
// retry before each save), so a file that could not be read is never
// saved over; a corrupt file is set aside (.bad, .bad.1, …), logged, and
// is not an error.
func OpenHistory(dir, preset string, log *slog.Logger) (*History, error) {
	if log == nil {
		log = slog.Default()
	}
	h := &History{log: log, file: atomicfile.JSONFile[historyFile]{
		Path: filepath.Join(dir, "delegation-history-"+atomicfile.SafeName(preset)+".json"),
		Pkg:  "delegation", What: "history", Event: "delegation_history", Log: log,
		ReadFile: func(p string) ([]byte, error) { return readFile(p) },
	}}
	items, err := h.read()
	h.items = items
	return h, err
}

// Path is the file the history writes.
func (h *History) Path() string { return h.file.Path }

// Items returns the history, newest started first.
func (h *History) Items() []Item {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := slices.Clone(h.items)
	slices.Reverse(out)
	return out
}

// SaveDelay is how long a MergeLater change may wait to be saved.
const SaveDelay = time.Second

// Merge applies one delegations frame at now and saves the result when it
// changed (with any MergeSoon change still waiting).
func (h *History) Merge(frame []Item, now time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.applyLocked(frame, now) && !h.dirty && h.file.Unreadable() == nil {
		return nil
	}
	h.stopTimerLocked()
	h.dirty = false
	return h.save()
}

// MergeSoon is Merge for a stream of frames: a frame that comes after a
// quiet SaveDelay is saved at once (its error returned); the frames that
// follow within SaveDelay of that save are applied now and saved together
// when it has passed, so a flood of frames costs one write a SaveDelay
// and not one each (issue 23). Flush saves at once (on close). A delayed
// save that fails is logged, and tried again after the next change.
func (h *History) MergeSoon(frame []Item, now time.Time) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.applyLocked(frame, now) && h.file.Unreadable() == nil {
		return nil
	}
	if h.timer == nil && (h.saved.IsZero() || time.Since(h.saved) >= SaveDelay) {
		h.dirty = false
		h.saved = time.Now()
		return h.save()
	}
	h.dirty = true
	if h.timer == nil {
		h.timer = time.AfterFunc(SaveDelay-time.Since(h.saved), h.saveLater)
	}
	return nil
}

func (h *History) saveLater() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.timer = nil
	if !h.dirty {
		return
	}
	h.dirty = false
	h.saved = time.Now()
	if err := h.save(); err != nil {
		h.dirty = true
		h.log.Warn("delegation_history.save_failed", "path", h.file.Path, "err", err.Error())
	}
}

// Flush saves a MergeSoon change still waiting.
func (h *History) Flush() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stopTimerLocked()
	if !h.dirty {
		return nil
	}
	h.dirty = false
	if err := h.save(); err != nil {
		h.dirty = true
		return err
	}
	return nil
}

func (h *History) stopTimerLocked() {
	if h.timer != nil {
		h.timer.Stop()
		h.timer = nil
	}
}

// applyLocked merges one frame at now into memory and reports whether the
// history changed.
func (h *History) applyLocked(frame []Item, now time.Time) bool {
	frame = Clean(frame)
	before, _ := json.Marshal(h.items)
	nowMS := now.UnixMilli()
	index := map[string]int{}
	for i, it := range h.items {
		index[it.ID] = i
	}
	inFrame := map[string]bool{}
	for _, it := range frame {
		inFrame[it.ID] = true
		if i, ok := index[it.ID]; ok {
			old := h.items[i]
			if it.State == Done && it.EndedAt == 0 {
				it.EndedAt = nowMS
				if old.State == Done && old.EndedAt != 0 {
					it.EndedAt = old.EndedAt
				}
			}
			h.items[i] = it
			continue
		}
		if it.State == Done && it.EndedAt == 0 {
			it.EndedAt = nowMS
		}
		index[it.ID] = len(h.items)
		h.items = append(h.items, it)
	}
	for i, it := range h.items {
		if it.State == Running && !inFrame[it.ID] {
			h.items[i].State, h.items[i].Status, h.items[i].EndedAt = Done, StatusUnknown, nowMS
		}
	}
	h.items = trim(sortItems(h.items))
	after, _ := json.Marshal(h.items)
	return !bytes.Equal(before, after)
}

// Reload merges the file into memory: items only the file holds are added,
// items memory holds win. A corrupt file is set aside and memory is kept.
// A read that succeeds allows saving again after a failed one.
func (h *History) Reload() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	items, err := h.read()
	h.mergeLocked(items)
	return err
}

// mergeLocked adds the items memory does not hold; called with mu held.
func (h *History) mergeLocked(items []Item) {
	have := map[string]bool{}
	for _, it := range h.items {
		have[it.ID] = true
	}
	for _, it := range items {
		if !have[it.ID] {
			h.items = append(h.items, it)
		}
	}
	h.items = trim(sortItems(h.items))
}

// read loads and cleans the file; a missing or corrupt file gives nil.
// Called with mu held (or before the History is shared).
func (h *History) read() ([]Item, error) {
	f, _, err := h.file.Load()
	return trim(sortItems(cleanHistory(f.Items))), err
}

// save writes the history; called with mu held. After a failed read it
// reads the file again first: while that still fails, nothing is written
// (the history stays in memory and the refusal is logged); once it
// succeeds, the file's items are merged in and the result written.
func (h *History) save() error {
	f, _, err := h.file.Writable()
	if err != nil {
		return err
	}
	h.mergeLocked(trim(sortItems(cleanHistory(f.Items))))
	return h.file.Save(historyFile{Items: h.items})
}

// cleanHistory applies Clean's per-item rules without the 50-item cap.
func cleanHistory(items []Item) []Item {
	var out []Item
	for start := 0; start < len(items); start += MaxItems {
		out = append(out, Clean(items[start:min(start+MaxItems, len(items))])...)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(out, func(it Item) bool {
		dup := seen[it.ID]
		seen[it.ID] = true
		return dup
	})
}

func sortItems(items []Item) []Item {
	slices.SortStableFunc(items, func(a, b Item) int {
		return cmp.Or(cmp.Compare(a.StartedAt, b.StartedAt), cmp.Compare(a.ID, b.ID))
	})
	return items
}

// trim drops the oldest done items past MaxHistory; running items stay.
func trim(items []Item) []Item {
	extra := len(items) - MaxHistory
	if extra <= 0 {
		return items
	}
	return slices.DeleteFunc(items, func(it Item) bool {
		if extra > 0 && it.State == Done {
			extra--
			return true
		}
		return false
	})
}
