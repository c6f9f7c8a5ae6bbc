package delegation

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"yui/app/atomicfile"
	"yui/app/history"
)

// History is the persisted record of every delegation seen for a preset,
// kept in the character's history database (app/history).
type History struct {
	mu  sync.Mutex
	dir string
	key string // the preset
	// db is the history database; nil while it cannot be opened (the
	// history is then kept in memory only and each save tries again).
	db    *history.DB
	log   *slog.Logger
	items []Item          // ordered by started_at, then id
	saved map[string]Item // what the database holds, as last read or written
	dirty bool            // a MergeSoon change is not saved yet
	timer *time.Timer     // saves it
	last  time.Time       // the last MergeSoon save
	// writes counts the transactions written (for tests).
	writes int
	// damaged is the error of an older file that did not parse (kept
	// aside) at this open or a Reload.
	damaged error
}

// legacyPath is the JSON file of an older Yui, imported once.
func legacyPath(dir, preset string) string {
	return filepath.Join(dir, "delegation-history-"+atomicfile.SafeName(preset)+".json")
}

type historyFile struct {
	Items []Item `json:"items"`
}

// OpenHistory loads the history of preset from its database in dir
// (app/history; dir "" keeps it in memory). The History is never nil: a
// database that cannot be opened leaves it empty and in memory, the error
// is returned for logging, and every save (and Reload) tries to open it
// again. An older Yui's delegation-history-<preset>.json is imported once
// (kept as .bak); one that does not parse is set aside (.bad, .bad.1, …),
// logged, and is not an error.
func OpenHistory(dir, preset string, log *slog.Logger) (*History, error) {
	if log == nil {
		log = slog.Default()
	}
	h := &History{dir: dir, key: preset, log: log, saved: map[string]Item{}}
	err := h.openLocked()
	return h, err
}

// openLocked opens the database (when it is not open), imports the older
// file and merges what the database holds into memory.
func (h *History) openLocked() error {
	if h.db == nil {
		db, err := history.Open(h.dir, h.key, h.log)
		if err != nil {
			return fmt.Errorf("delegation: open history: %w", err)
		}
		h.db = db
	}
	if h.dir != "" {
		err := h.db.Migrate(history.Migration{Name: "delegations", Path: legacyPath(h.dir, h.key), Parse: parseLegacy})
		switch {
		case errors.Is(err, history.ErrDamaged):
			h.log.Warn("delegation_history.corrupt", "err", err.Error())
			h.damaged = err
		case err != nil:
			h.log.Warn("delegation_history.import_failed", "err", err.Error())
		}
	}
	stored, err := h.db.Delegations()
	if err != nil {
		return fmt.Errorf("delegation: read history: %w", err)
	}
	items := make([]Item, len(stored))
	for i, d := range stored {
		items[i] = Item(d)
	}
	items = trim(sortItems(cleanHistory(items)))
	clear(h.saved)
	for _, it := range stored {
		h.saved[it.ID] = Item(it)
	}
	h.mergeLocked(items)
	return nil
}

// parseLegacy reads an older delegation-history file.
func parseLegacy(b []byte, _ [][]byte) (history.Import, error) {
	var f historyFile
	if err := json.Unmarshal(b, &f); err != nil {
		return history.Import{}, fmt.Errorf("not a delegation history: %w", err)
	}
	var imp history.Import
	for _, it := range trim(sortItems(cleanHistory(f.Items))) {
		imp.Delegations = append(imp.Delegations, history.Delegation(it))
	}
	return imp, nil
}

// Damaged is the error of an older delegation-history file that did not
// parse and was kept aside (it says where), nil when there was none: for
// a notice.
func (h *History) Damaged() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.damaged
}

// Close saves what waits and closes the database.
func (h *History) Close() error {
	err := h.Flush()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.db != nil {
		err = errors.Join(err, h.db.Close())
		h.db = nil
	}
	return err
}

// Path is the file the history writes.
func (h *History) Path() string { return history.Path(h.dir, h.key) }

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
	if !h.applyLocked(frame, now) && !h.dirty && h.db != nil {
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
	if !h.applyLocked(frame, now) && h.db != nil {
		return nil
	}
	if h.timer == nil && (h.last.IsZero() || time.Since(h.last) >= SaveDelay) {
		h.dirty = false
		h.last = time.Now()
		return h.save()
	}
	h.dirty = true
	if h.timer == nil {
		h.timer = time.AfterFunc(SaveDelay-time.Since(h.last), h.saveLater)
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
	h.last = time.Now()
	if err := h.save(); err != nil {
		h.dirty = true
		h.log.Warn("delegation_history.save_failed", "path", h.Path(), "err", err.Error())
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

// Reload merges the database into memory: items only the database holds
// are added, items memory holds win (opening it first if it was not).
func (h *History) Reload() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.openLocked()
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

// save writes what changed since the last save (items put whole, items
// dropped removed) in one transaction; called with mu held. While the
// database cannot be opened nothing is written (the history stays in
// memory) and the error says so; once it opens, what it holds is merged
// in first.
func (h *History) save() error {
	if h.db == nil {
		if err := h.openLocked(); err != nil {
			h.log.Warn("delegation_history.not_saved", "path", h.Path(), "err", err.Error())
			return fmt.Errorf("delegation: save history: %w", err)
		}
	}
	var put []history.Delegation
	keep := make(map[string]bool, len(h.items))
	for _, it := range h.items {
		keep[it.ID] = true
		if old, ok := h.saved[it.ID]; !ok || old != it {
			put = append(put, history.Delegation(it))
		}
	}
	var dropped []string
	for id := range h.saved {
		if !keep[id] {
			dropped = append(dropped, id)
		}
	}
	if len(put) == 0 && len(dropped) == 0 {
		return nil
	}
	if err := h.db.SaveDelegations(put, dropped); err != nil {
		return fmt.Errorf("delegation: save history: %w", err)
	}
	h.writes++
	for _, id := range dropped {
		delete(h.saved, id)
	}
	for _, it := range put {
		h.saved[it.ID] = Item(it)
	}
	return nil
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
