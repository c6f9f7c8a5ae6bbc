package history

import (
	"database/sql/driver"
	"fmt"
	"slices"
)

// Row is one transcript row as stored (app/transcript.Entry with the
// conversation it belongs to).
type Row struct {
	ID        uint64 `json:"id"`
	Conv      int64  `json:"conv"`
	TurnID    string `json:"turn_id,omitempty"`
	Kind      string `json:"kind"`
	Text      string `json:"text"`
	Reasoning string `json:"reasoning,omitempty"`
	State     string `json:"state,omitempty"`
	At        int64  `json:"at"`
	Sent      string `json:"sent,omitempty"`
}

const rowCols = "id, conv, turn_id, kind, text, reasoning, state, at, sent"

// shown is the condition of a row the message window shows (a user row
// without text is a turn nobody typed, kept for what is sent).
const shown = "NOT (kind = 'user' AND text = '')"

func rowOf(v []driver.Value) Row {
	return Row{ID: uint64(int64Of(v[0])), Conv: int64Of(v[1]), TurnID: stringOf(v[2]), Kind: stringOf(v[3]), Text: stringOf(v[4]),
		Reasoning: stringOf(v[5]), State: stringOf(v[6]), At: int64Of(v[7]), Sent: stringOf(v[8])}
}

// rows runs a query of rowCols.
func (d *DB) rows(q string, args ...any) ([]Row, error) {
	var out []Row
	err := d.read(func(c *conn) error {
		return c.query(q, func(v []driver.Value) error { out = append(out, rowOf(v)); return nil }, args...)
	})
	return out, err
}

// State is where the history stands: the current conversation and the
// next row id (ids are never reused, also across conversations).
type State struct {
	Conv   int64
	NextID uint64
}

// State reads the current conversation and the next id.
func (d *DB) State() (State, error) {
	var conv, next, top int64
	err := d.read(func(c *conn) error {
		var err error
		if conv, err = metaOf(c, "conv"); err != nil {
			return err
		}
		if next, err = metaOf(c, "next_id"); err != nil {
			return err
		}
		return c.query("SELECT coalesce(max(id), 0) FROM entries", func(v []driver.Value) error { top = int64Of(v[0]); return nil })
	})
	if err != nil {
		return State{}, err
	}
	return State{Conv: max(conv, 1), NextID: uint64(max(next, top+1, 1))}, nil
}

// Put writes rows (added or changed, whole) in one transaction; sync puts
// it on the disk before returning.
func (d *DB) Put(sync bool, rows ...Row) error {
	if len(rows) == 0 {
		return nil
	}
	err := d.write(sync, func(c *conn) error { return putRows(c, rows) })
	if err == nil {
		d.trimSoon(len(rows))
	}
	return err
}

func putRows(c *conn, rows []Row) error {
	st, err := c.stmt(`INSERT INTO entries (` + rowCols + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET conv = excluded.conv, turn_id = excluded.turn_id, kind = excluded.kind,
		text = excluded.text, reasoning = excluded.reasoning, state = excluded.state, at = excluded.at, sent = excluded.sent`)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if err := st.exec(r.ID, r.Conv, r.TurnID, r.Kind, r.Text, r.Reasoning, r.State, r.At, r.Sent); err != nil {
			return fmt.Errorf("row %d: %w", r.ID, err)
		}
	}
	return nil
}

// NewConversation starts conversation conv (New conversation), on the
// disk before it returns; nextID is recorded so ids are never reused.
func (d *DB) NewConversation(conv int64, nextID uint64) error {
	return d.write(true, func(c *conn) error {
		if err := setMeta(c, "conv", conv); err != nil {
			return err
		}
		return setMeta(c, "next_id", int64(nextID))
	})
}

// Latest is the newest n rows of conversation conv, oldest first.
func (d *DB) Latest(conv int64, n int) ([]Row, error) {
	rows, err := d.rows("SELECT "+rowCols+" FROM entries WHERE conv = ? ORDER BY id DESC LIMIT ?", conv, n)
	slices.Reverse(rows)
	return rows, err
}

// Find is the newest row of conv with turnID and kind.
func (d *DB) Find(conv int64, turnID, kind string) (Row, bool, error) {
	rows, err := d.rows("SELECT "+rowCols+" FROM entries WHERE conv = ? AND turn_id = ? AND kind = ? ORDER BY id DESC LIMIT 1", conv, turnID, kind)
	if err != nil || len(rows) == 0 {
		return Row{}, false, err
	}
	return rows[0], true, nil
}

// Streaming is the rows of conv whose state is "streaming", oldest first.
func (d *DB) Streaming(conv int64) ([]Row, error) {
	return d.rows("SELECT "+rowCols+" FROM entries WHERE conv = ? AND state = 'streaming' ORDER BY id", conv)
}

// Sent is the newest n rows of conv that carry a Sent text, oldest first.
func (d *DB) Sent(conv int64, n int) ([]Row, error) {
	rows, err := d.rows("SELECT "+rowCols+" FROM entries INDEXED BY entries_sent WHERE conv = ? AND sent != '' AND kind IN ('user', 'reply') ORDER BY id DESC LIMIT ?", conv, n)
	slices.Reverse(rows)
	return rows, err
}

// PageRows is how many rows the message window asks for at a time.
const PageRows = 50

// Page is the n rows the message window shows before id (0: the newest),
// of every conversation, oldest first; more says whether older ones
// exist.
func (d *DB) Page(before uint64, n int) (rows []Row, more bool, err error) {
	if before == 0 || before > 1<<62 {
		before = 1 << 62
	}
	rows, err = d.rows("SELECT "+rowCols+" FROM entries WHERE id < ? AND "+shown+" ORDER BY id DESC LIMIT ?", before, n+1)
	if len(rows) > n {
		rows, more = rows[:n], true
	}
	slices.Reverse(rows)
	return rows, more, err
}

// Conversation is every row of conversation conv that the window shows,
// oldest first (for an export).
func (d *DB) Conversation(conv int64) ([]Row, error) {
	return d.rows("SELECT "+rowCols+" FROM entries WHERE conv = ? AND "+shown+" ORDER BY id", conv)
}

// trimSoon drops the oldest rows past MaxRows, checked every trimEvery
// added rows.
func (d *DB) trimSoon(added int) {
	d.mu.Lock()
	d.added += added
	due := d.added >= trimEvery
	if due {
		d.added = 0
	}
	d.mu.Unlock()
	if due {
		if err := d.Trim(MaxRows); err != nil {
			d.log.Warn("history_trim_failed", "path", d.path, "err", err.Error())
		}
	}
}

// Trim keeps the newest keep rows.
func (d *DB) Trim(keep int) error {
	return d.write(false, func(c *conn) error {
		return c.exec("DELETE FROM entries WHERE id <= (SELECT id FROM entries ORDER BY id DESC LIMIT 1 OFFSET ?)", keep)
	})
}
