package history

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"yui/app/atomicfile"
)

// MaxRows is how many rows a character's history keeps (the oldest
// leave, in any conversation but the current one's newest).
const MaxRows = 250_000

// trimEvery is how many added rows pass between two checks of MaxRows.
const trimEvery = 1_000

// schemaVersion is the database's user_version once migrate has run.
const schemaVersion = 1

// DB is one character's history database.
type DB struct {
	path string
	log  *slog.Logger

	mu    sync.Mutex // guards c
	c     *conn      // nil once closed
	added int        // rows added since the last MaxRows check
}

// errClosed is the error of a call after Close.
var errClosed = errors.New("history: closed")

// Path is the database file of preset in dir ("" when dir is "").
func Path(dir, preset string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, "history-"+atomicfile.SafeName(preset)+".db")
}

// Open opens (creating, mode 0600) the history of preset in dir; dir ""
// keeps it in memory only. log may be nil.
func Open(dir, preset string, log *slog.Logger) (*DB, error) {
	return OpenFile(Path(dir, preset), log)
}

// OpenFile opens the history database at path ("" in memory).
func OpenFile(path string, log *slog.Logger) (*DB, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dsn := ":memory:"
	if path != "" {
		// The file exists with mode 0600 before SQLite opens it: its WAL
		// and shared-memory files take the database file's mode.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		f.Close()
		if err := os.Chmod(path, 0o600); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		dsn = "file:" + filepath.ToSlash(path)
	}
	dsn += "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	c, err := dial(dsn)
	if err != nil {
		return nil, fmt.Errorf("history: open %s: %w", path, err)
	}
	d := &DB{c: c, path: path, log: log}
	if err := d.migrate(); err != nil {
		c.close()
		return nil, fmt.Errorf("history: %s: %w", path, err)
	}
	return d, nil
}

// File is the database file ("" in memory).
func (d *DB) File() string { return d.path }

// Close closes the database (the WAL is checkpointed into it).
func (d *DB) Close() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.c == nil {
		return nil
	}
	err := d.c.close()
	d.c = nil
	return err
}

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS entries (
	id        INTEGER PRIMARY KEY,
	conv      INTEGER NOT NULL,
	turn_id   TEXT NOT NULL DEFAULT '',
	kind      TEXT NOT NULL,
	text      TEXT NOT NULL DEFAULT '',
	reasoning TEXT NOT NULL DEFAULT '',
	state     TEXT NOT NULL DEFAULT '',
	at        INTEGER NOT NULL,
	sent      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS entries_turn ON entries (conv, turn_id, kind, id);
CREATE INDEX IF NOT EXISTS entries_streaming ON entries (conv, id) WHERE state = 'streaming';
CREATE INDEX IF NOT EXISTS entries_sent ON entries (conv, id) WHERE sent != '';
CREATE VIRTUAL TABLE IF NOT EXISTS entries_fts USING fts5 (
	text, reasoning, content = 'entries', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS entries_fts_insert AFTER INSERT ON entries BEGIN
	INSERT INTO entries_fts (rowid, text, reasoning) VALUES (new.id, new.text, new.reasoning);
END;
CREATE TRIGGER IF NOT EXISTS entries_fts_delete AFTER DELETE ON entries BEGIN
	INSERT INTO entries_fts (entries_fts, rowid, text, reasoning) VALUES ('delete', old.id, old.text, old.reasoning);
END;
CREATE TRIGGER IF NOT EXISTS entries_fts_update AFTER UPDATE OF text, reasoning ON entries
WHEN old.text IS NOT new.text OR old.reasoning IS NOT new.reasoning BEGIN
	INSERT INTO entries_fts (entries_fts, rowid, text, reasoning) VALUES ('delete', old.id, old.text, old.reasoning);
	INSERT INTO entries_fts (rowid, text, reasoning) VALUES (new.id, new.text, new.reasoning);
END;
CREATE TABLE IF NOT EXISTS delegations (
	id         TEXT PRIMARY KEY,
	title      TEXT NOT NULL,
	started_at INTEGER NOT NULL,
	state      TEXT NOT NULL,
	ended_at   INTEGER NOT NULL DEFAULT 0,
	status     TEXT NOT NULL DEFAULT '',
	summary    TEXT NOT NULL DEFAULT ''
) WITHOUT ROWID;
`

// migrate brings the schema to schemaVersion in one transaction.
func (d *DB) migrate() error {
	var v int64
	err := d.read(func(c *conn) error {
		return c.query("PRAGMA user_version", func(r []driver.Value) error { v = int64Of(r[0]); return nil })
	})
	if err != nil {
		return fmt.Errorf("not a history database: %w", err)
	}
	if v > schemaVersion {
		return fmt.Errorf("written by a newer Yui (schema %d, this one knows %d)", v, schemaVersion)
	}
	if v == schemaVersion {
		return nil
	}
	return d.write(false, func(c *conn) error {
		if err := c.exec(schema); err != nil {
			return err
		}
		return c.exec(fmt.Sprintf("PRAGMA user_version = %d", schemaVersion))
	})
}

// read runs fn on the connection (reads see every commit before them).
func (d *DB) read(fn func(*conn) error) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.c == nil {
		return errClosed
	}
	if err := fn(d.c); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	return nil
}

// write runs fn in one transaction (BEGIN IMMEDIATE … COMMIT; rolled back
// when fn fails); sync puts the commit on the disk before it returns.
func (d *DB) write(sync bool, fn func(*conn) error) (err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.c == nil {
		return errClosed
	}
	c := d.c
	if sync && d.path != "" {
		if err := c.exec("PRAGMA synchronous = FULL"); err != nil {
			return fmt.Errorf("history: %w", err)
		}
		defer func() {
			if perr := c.exec("PRAGMA synchronous = NORMAL"); perr != nil && err == nil {
				err = fmt.Errorf("history: %w", perr)
			}
		}()
	}
	if err := c.exec("BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("history: begin: %w", err)
	}
	if err := fn(c); err != nil {
		return errors.Join(fmt.Errorf("history: %w", err), c.exec("ROLLBACK"))
	}
	if err := c.exec("COMMIT"); err != nil {
		return errors.Join(fmt.Errorf("history: commit: %w", err), c.exec("ROLLBACK"))
	}
	return nil
}

// metaOf reads a meta value (0 when unset).
func metaOf(c *conn, key string) (int64, error) {
	var v int64
	err := c.query("SELECT value FROM meta WHERE key = ?", func(r []driver.Value) error { v = int64Of(r[0]); return nil }, key)
	return v, err
}

func setMeta(c *conn, key string, v int64) error {
	return c.execCached("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value", key, v)
}

// Check verifies the database file (PRAGMA integrity_check): nil when
// it is intact.
func (d *DB) Check() error {
	var res string
	err := d.read(func(c *conn) error {
		return c.query("PRAGMA integrity_check", func(r []driver.Value) error { res = stringOf(r[0]); return nil })
	})
	if err != nil {
		return fmt.Errorf("history: check: %w", err)
	}
	if res != "ok" {
		return fmt.Errorf("history: check: %s", res)
	}
	return nil
}
