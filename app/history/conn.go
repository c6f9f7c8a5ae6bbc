package history

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	"modernc.org/sqlite"
)

// conn is the database's one SQLite connection, used through the driver
// directly: database/sql's pool would run a goroutine per database (and
// serialise nothing we do not serialise already). Not safe for
// concurrent use: DB.mu guards it.
type conn struct {
	c     driver.Conn
	stmts map[string]*stmt // prepared once, kept for the connection's life
}

func dial(dsn string) (*conn, error) {
	cn, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	c, err := cn.Connect(context.Background())
	if err != nil {
		return nil, err
	}
	return &conn{c: c, stmts: map[string]*stmt{}}, nil
}

func (c *conn) close() error {
	for _, s := range c.stmts {
		s.close()
	}
	clear(c.stmts)
	return c.c.Close()
}

// stmt is q prepared (once: the cache keeps it; never close it).
func (c *conn) stmt(q string) (*stmt, error) {
	if s, ok := c.stmts[q]; ok {
		return s, nil
	}
	s, err := c.prepare(q)
	if err != nil {
		return nil, err
	}
	c.stmts[q] = s
	return s, nil
}

func named(args []any) []driver.NamedValue {
	out := make([]driver.NamedValue, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case int:
			a = int64(v)
		case uint64:
			a = int64(v)
		}
		out[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	return out
}

// exec runs q (one statement or several, not cached: BEGIN, COMMIT, the
// schema).
func (c *conn) exec(q string, args ...any) error {
	_, err := c.c.(driver.ExecerContext).ExecContext(context.Background(), q, named(args))
	return err
}

// execCached runs the one statement q, prepared once.
func (c *conn) execCached(q string, args ...any) error {
	st, err := c.stmt(q)
	if err != nil {
		return err
	}
	return st.exec(args...)
}

// query runs q and calls row for each result row with its values
// (int64, float64, string, []byte or nil).
func (c *conn) query(q string, row func([]driver.Value) error, args ...any) error {
	st, err := c.stmt(q)
	if err != nil {
		return err
	}
	rs, err := st.s.(driver.StmtQueryContext).QueryContext(context.Background(), named(args))
	if err != nil {
		return err
	}
	defer rs.Close()
	vals := make([]driver.Value, len(rs.Columns()))
	for {
		if err := rs.Next(vals); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if err := row(vals); err != nil {
			return err
		}
	}
}

// int64Of and stringOf read one value of a result row.
func int64Of(v driver.Value) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case float64:
		return int64(x)
	}
	return 0
}

func stringOf(v driver.Value) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// stmt is a prepared statement of the connection.
type stmt struct{ s driver.Stmt }

func (c *conn) prepare(q string) (*stmt, error) {
	s, err := c.c.Prepare(q)
	if err != nil {
		return nil, err
	}
	return &stmt{s: s}, nil
}

func (s *stmt) exec(args ...any) error {
	_, err := s.s.(driver.StmtExecContext).ExecContext(context.Background(), named(args))
	return err
}

func (s *stmt) close() error { return s.s.Close() }
