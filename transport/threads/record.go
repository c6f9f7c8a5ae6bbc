package threads

import (
	"encoding/json"
	"strings"
)

// Bounds of what the client holds of a thread.
const (
	// maxRecords is how many message records are held; the oldest
	// settled ones go first.
	maxRecords = 256
	// maxRecordField bounds one member of a held record.
	maxRecordField = 1 << 20
	// maxRecordsBytes bounds the members of all held records together;
	// past it the oldest settled records go, and a member that still does
	// not fit stays unknown.
	maxRecordsBytes = 8 << 20
)

// record is one message as the client knows it: every member any frame or
// read carried, merged field by field. A member no frame carried is
// unknown (absent from fields), which is not the same as null.
type record struct {
	id     string
	fields map[string]json.RawMessage
	size   int // bytes of its members' names and values
}

func memberSize(k string, v json.RawMessage) int { return len(k) + len(v) }

// has reports whether the member is known (null included).
func (r *record) has(k string) bool { _, ok := r.fields[k]; return ok }

// str is a known string member; ok false when unknown, null or another type.
func (r *record) str(k string) (string, bool) {
	v, ok := r.fields[k]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

func (r *record) role() string   { s, _ := r.str("role"); return s }
func (r *record) status() string { s, _ := r.str("status"); return s }

// depth is the record's depth (0 when unknown).
func (r *record) depth() int {
	var d float64
	if v, ok := r.fields["depth"]; ok && json.Unmarshal(v, &d) == nil && d > 0 {
		return int(d)
	}
	return 0
}

// silent reports a record marked silent (true or 1).
func (r *record) silent() bool {
	v := strings.TrimSpace(string(r.fields["silent"]))
	return v == "true" || v == "1"
}

// hasToolCalls reports an assistant record that asked for tools (the run
// goes on after them).
func (r *record) hasToolCalls() bool {
	v := strings.TrimSpace(string(r.fields["tool_calls"]))
	return v != "" && v != "null" && v != `""` && v != "[]" && v != `"[]"`
}

// queuedIn reports whether an object of members says the message waits in
// the queue (metadata.queued true).
func queuedIn(m map[string]json.RawMessage) bool {
	var md struct {
		Queued bool `json:"queued"`
	}
	return len(m["metadata"]) > 0 && json.Unmarshal(m["metadata"], &md) == nil && md.Queued
}

// strIn is a string member of an object of members.
func strIn(m map[string]json.RawMessage, k string) (string, bool) {
	v, ok := m[k]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// records holds message records by id, at most maxRecords, evicting the
// oldest that settle allows.
type records struct {
	byID  map[string]*record
	order []string
	size  int // bytes of every held record's members (≤ maxRecordsBytes)
}

// merge takes every member of data (a JSON object) into r; members data
// lacks keep their value. It returns the members data carried, decoded
// as one object, or nil when data is not an object. keep is get's.
func (rs *records) merge(r *record, data json.RawMessage, keep func(id string) bool) map[string]json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil || m == nil {
		return nil
	}
	if r.fields == nil {
		r.fields = make(map[string]json.RawMessage, len(m))
	}
	for k, v := range m {
		if len(v) > maxRecordField {
			continue // an oversized member stays unknown
		}
		grow := memberSize(k, v)
		if old, ok := r.fields[k]; ok {
			grow -= memberSize(k, old)
		}
		if rs.size+grow > maxRecordsBytes && !rs.evict(r.id, grow, keep) {
			continue // no room: the member stays unknown
		}
		r.fields[k] = v
		r.size += grow
		rs.size += grow
	}
	return m
}

// evict makes room for grow more bytes by dropping the oldest records keep
// allows (never self); it reports whether there is room now.
func (rs *records) evict(self string, grow int, keep func(id string) bool) bool {
	for i := 0; i < len(rs.order) && rs.size+grow > maxRecordsBytes; {
		old := rs.order[i]
		if old == self || keep(old) {
			i++
			continue
		}
		rs.size -= rs.byID[old].size
		delete(rs.byID, old)
		rs.order = append(rs.order[:i], rs.order[i+1:]...)
	}
	return rs.size+grow <= maxRecordsBytes
}

func newRecords() *records { return &records{byID: map[string]*record{}} }

// get returns the record of id, creating it. keep says which records may
// not be evicted (those of a turn still running).
func (rs *records) get(id string, keep func(id string) bool) *record {
	if r := rs.byID[id]; r != nil {
		return r
	}
	r := &record{id: id}
	rs.byID[id] = r
	rs.order = append(rs.order, id)
	for len(rs.order) > maxRecords {
		evicted := false
		for i, old := range rs.order {
			if old == id || keep(old) {
				continue
			}
			rs.size -= rs.byID[old].size
			delete(rs.byID, old)
			rs.order = append(rs.order[:i], rs.order[i+1:]...)
			evicted = true
			break
		}
		if !evicted {
			break
		}
	}
	return r
}

// shed drops the large members (content, reasoning) of id's record, a
// message its run left unfinished: nothing of it is spoken any more, and
// a later frame or read carries them again whole.
func (rs *records) shed(id string) {
	r := rs.byID[id]
	if r == nil {
		return
	}
	for _, k := range []string{"content", "reasoning_content", "reasoning_details"} {
		if v, ok := r.fields[k]; ok {
			r.size -= memberSize(k, v)
			rs.size -= memberSize(k, v)
			delete(r.fields, k)
		}
	}
}

func (rs *records) known(id string) bool { return rs.byID[id] != nil }

func (rs *records) clear() {
	rs.byID = map[string]*record{}
	rs.order = nil
	rs.size = 0
}
