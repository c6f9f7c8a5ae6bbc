package history

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"yui/app/atomicfile"
)

// MaxImportBytes is the most of a JSON file Migrate reads.
const MaxImportBytes = 64 << 20

// Import is what an older file holds, in the database's terms.
type Import struct {
	Rows        []Row
	Delegations []Delegation
	// NextID is the file's next entry id (ids are never reused).
	NextID uint64
}

// Migration is one older JSON file to import.
type Migration struct {
	// Name is its key in the database's record of migrations
	// ("transcript", "delegations", …): a file is imported once.
	Name string
	// Path is the file; Also are files that go with it (a journal),
	// renamed to .bak with it.
	Path string
	Also []string
	// Parse reads the file's bytes (and Also's; a missing one is nil).
	Parse func(main []byte, also [][]byte) (Import, error)
}

// ErrDamaged wraps the error of a file that did not parse (kept aside).
var ErrDamaged = errors.New("damaged")

// Migrate imports m's file if it exists and has not been imported: in one
// transaction the rows and delegations (those the database does not hold
// yet, by id) are added and the migration recorded; then the file (and
// Also) are renamed to .bak. A file that does not parse is kept aside
// (.bad) and the error, wrapping ErrDamaged, names where it went. A file
// that cannot be read stays where it is (retried at the next start).
// Imported rows without a conversation go to the current one.
func (d *DB) Migrate(m Migration) error {
	var done int64
	if err := d.read(func(c *conn) (err error) { done, err = metaOf(c, "migrated:"+m.Name); return err }); err != nil {
		return err
	}
	main, err := readBounded(m.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if done == 0 {
		if errors.Is(err, ErrDamaged) {
			return d.keepAside(m, err)
		}
		if err != nil {
			return fmt.Errorf("history: migrate %s: %w", m.Path, err)
		}
		also := make([][]byte, len(m.Also))
		for i, p := range m.Also {
			b, err := readBounded(p)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("history: migrate %s: %w", p, err)
			}
			also[i] = b
		}
		imp, perr := m.Parse(main, also)
		if perr != nil {
			return d.keepAside(m, perr)
		}
		if err := d.importLocked(m.Name, imp); err != nil {
			return fmt.Errorf("history: migrate %s: %w", m.Path, err)
		}
		d.log.Info("history_migrated", "from", m.Path, "rows", len(imp.Rows), "delegations", len(imp.Delegations))
	}
	// Imported (now or by a run that stopped before the rename).
	for _, p := range append([]string{m.Path}, m.Also...) {
		if err := os.Rename(p, p+".bak"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			d.log.Warn("history_backup_rename_failed", "path", p, "err", err.Error())
		}
	}
	return nil
}

func (d *DB) keepAside(m Migration, cause error) error {
	var where []string
	for _, p := range append([]string{m.Path}, m.Also...) {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		aside, err := atomicfile.KeepAside(p)
		if err != nil {
			return fmt.Errorf("history: %s is damaged (%v) and could not be kept aside: %w", p, cause, err)
		}
		where = append(where, aside)
	}
	d.log.Warn("history_import_damaged", "path", m.Path, "kept_as", where, "err", cause.Error())
	return fmt.Errorf("history: %s is %w (%v), kept as %v", m.Path, ErrDamaged, cause, where)
}

func (d *DB) importLocked(name string, imp Import) error {
	st, err := d.State()
	if err != nil {
		return err
	}
	return d.write(true, func(c *conn) error {
		have := func(q string, id any) (bool, error) {
			var n int64
			err := c.query(q, func(v []driver.Value) error { n = int64Of(v[0]); return nil }, id)
			return n > 0, err
		}
		var rows []Row
		for _, r := range imp.Rows {
			ok, err := have("SELECT count(*) FROM entries WHERE id = ?", int64(r.ID))
			if err != nil {
				return err
			}
			if !ok {
				if r.Conv == 0 {
					r.Conv = st.Conv
				}
				rows = append(rows, r)
			}
		}
		if err := putRows(c, rows); err != nil {
			return err
		}
		var dels []Delegation
		for _, it := range imp.Delegations {
			ok, err := have("SELECT count(*) FROM delegations WHERE id = ?", it.ID)
			if err != nil {
				return err
			}
			if !ok {
				dels = append(dels, it)
			}
		}
		if err := saveDelegations(c, dels, nil); err != nil {
			return err
		}
		if imp.NextID > st.NextID {
			if err := setMeta(c, "next_id", int64(imp.NextID)); err != nil {
				return err
			}
		}
		return setMeta(c, "migrated:"+name, 1)
	})
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxImportBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxImportBytes {
		return nil, fmt.Errorf("%w: over %d bytes", ErrDamaged, MaxImportBytes)
	}
	return b, nil
}
