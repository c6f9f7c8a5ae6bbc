package history

import (
	"database/sql/driver"
	"fmt"
)

// Delegation is one delegation history item as stored (the fields of
// app/delegation.Item).
type Delegation struct {
	ID        string
	Title     string
	StartedAt int64
	State     string
	EndedAt   int64
	Status    string
	Summary   string
}

// Delegations is the stored delegation history, oldest started first.
func (d *DB) Delegations() ([]Delegation, error) {
	var out []Delegation
	err := d.read(func(c *conn) error {
		return c.query("SELECT id, title, started_at, state, ended_at, status, summary FROM delegations ORDER BY started_at, id",
			func(v []driver.Value) error {
				out = append(out, Delegation{ID: stringOf(v[0]), Title: stringOf(v[1]), StartedAt: int64Of(v[2]), State: stringOf(v[3]),
					EndedAt: int64Of(v[4]), Status: stringOf(v[5]), Summary: stringOf(v[6])})
				return nil
			})
	})
	return out, err
}

// SaveDelegations writes the items put (whole) and removes the ids
// dropped, in one transaction.
func (d *DB) SaveDelegations(put []Delegation, dropped []string) error {
	if len(put) == 0 && len(dropped) == 0 {
		return nil
	}
	return d.write(false, func(c *conn) error { return saveDelegations(c, put, dropped) })
}

func saveDelegations(c *conn, put []Delegation, dropped []string) error {
	for _, id := range dropped {
		if err := c.execCached("DELETE FROM delegations WHERE id = ?", id); err != nil {
			return err
		}
	}
	for _, it := range put {
		if err := c.execCached(`INSERT INTO delegations (id, title, started_at, state, ended_at, status, summary)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET title = excluded.title,
			started_at = excluded.started_at, state = excluded.state, ended_at = excluded.ended_at,
			status = excluded.status, summary = excluded.summary`,
			it.ID, it.Title, it.StartedAt, it.State, it.EndedAt, it.Status, it.Summary); err != nil {
			return fmt.Errorf("delegation %q: %w", it.ID, err)
		}
	}
	return nil
}
