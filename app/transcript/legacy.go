package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"yui/app/history"
)

// The transcript file of an older Yui, imported once into the history
// (history.Migrate) and kept as .bak:
//
//   - transcript-<id>.json, the snapshot: {"version":1,"next_id":N,
//     "journal":G,"entries":[…]} ("journal" absent in a file from before
//     the journal).
//   - transcript-<id>.json.journal: JSON lines. The first is {"gen":G};
//     each other is one change — {"put":{…}} an entry added or changed,
//     whole, or {"clear":true,"next_id":N} — applied in order over the
//     snapshot. A journal whose generation is not the snapshot's is stale
//     and ignored (the snapshot holds all of it); a torn last line (a
//     crash mid-write) is dropped.
//
// A cleared conversation's entries were gone from the file already: what
// the file showed last is imported as the current conversation.

type legacyFile struct {
	NextID  uint64  `json:"next_id"`
	Journal uint64  `json:"journal,omitempty"`
	Entries []Entry `json:"entries"`
}

type legacyLine struct {
	Gen    uint64 `json:"gen,omitempty"`
	Put    *Entry `json:"put,omitempty"`
	Clear  bool   `json:"clear,omitempty"`
	NextID uint64 `json:"next_id,omitempty"`
}

// parseLegacy reads an older snapshot and its journal (also[0], nil when
// missing). The snapshot must parse; a journal that does not continue it
// is ignored, as the older Yui did.
func parseLegacy(main []byte, also [][]byte) (history.Import, error) {
	var f legacyFile
	if err := json.Unmarshal(main, &f); err != nil {
		return history.Import{}, fmt.Errorf("not a transcript: %w", err)
	}
	entries := f.Entries
	next := f.NextID
	if len(also) > 0 && also[0] != nil {
		entries, next = replayLegacy(entries, next, f.Journal, also[0])
	}
	imp := history.Import{NextID: next}
	for _, e := range entries {
		bound(&e)
		imp.Rows = append(imp.Rows, toRow(0, e))
		imp.NextID = max(imp.NextID, e.ID+1)
	}
	return imp, nil
}

func replayLegacy(entries []Entry, next, gen uint64, journal []byte) ([]Entry, uint64) {
	lines := bytes.Split(journal, []byte{'\n'})
	var hdr legacyLine
	if json.Unmarshal(lines[0], &hdr) != nil || hdr.Gen == 0 || hdr.Gen != gen {
		return entries, next // stale: the snapshot was written after it
	}
	for _, raw := range lines[1:] {
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		var l legacyLine
		if json.Unmarshal(raw, &l) != nil {
			break // torn: it and what follows were never acknowledged
		}
		switch {
		case l.Clear:
			entries = nil
			next = max(next, l.NextID)
		case l.Put != nil:
			e := *l.Put
			next = max(next, e.ID+1)
			i, found := slices.BinarySearchFunc(entries, e.ID, func(x Entry, id uint64) int {
				return cmpID(x.ID, id)
			})
			if found {
				entries[i] = e
			} else {
				entries = slices.Insert(entries, i, e)
			}
		}
	}
	return entries, next
}

func cmpID(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
