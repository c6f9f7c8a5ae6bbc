package history

import (
	"database/sql/driver"
	"fmt"
	"strings"
)

// Hit is one row a search found, with a snippet of its text around the
// match: the matched words between Mark and EndMark.
type Hit struct {
	Row
	Snippet string `json:"snippet"`
}

// The snippet's marks (control characters no row text keeps visible).
const (
	Mark    = "\x02"
	EndMark = "\x03"
)

// MaxQueryBytes bounds a search query.
const MaxQueryBytes = 512

// Search finds the rows the window shows whose text or reasoning holds
// every word of q (the last one as a prefix: "remem" finds "remember"),
// newest first, at most limit; the full-text index answers, not a scan.
func (d *DB) Search(q string, limit int) ([]Hit, error) {
	match := ftsQuery(q)
	if match == "" {
		return nil, nil
	}
	var out []Hit
	err := d.read(func(c *conn) error {
		return c.query(`SELECT e.id, e.conv, e.turn_id, e.kind, e.text, e.reasoning, e.state, e.at, e.sent, f.snip
		FROM (SELECT rowid, snippet(entries_fts, -1, '`+Mark+`', '`+EndMark+`', '…', 16) AS snip
		      FROM entries_fts WHERE entries_fts MATCH ? ORDER BY rowid DESC LIMIT ?) AS f
		JOIN entries AS e ON e.id = f.rowid WHERE `+shown+` ORDER BY e.id DESC`,
			func(v []driver.Value) error {
				out = append(out, Hit{Row: rowOf(v), Snippet: stringOf(v[9])})
				return nil
			}, match, limit)
	})
	if err != nil {
		return nil, fmt.Errorf("history: search: %w", err)
	}
	return out, nil
}

// ftsQuery turns what the user typed into an FTS5 query of quoted words
// (no operator or column filter of theirs is interpreted).
func ftsQuery(q string) string {
	if len(q) > MaxQueryBytes {
		q = q[:MaxQueryBytes]
	}
	words := strings.FieldsFunc(q, func(r rune) bool {
		return !(r == '\'' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127)
	})
	var b strings.Builder
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(`"` + strings.ReplaceAll(w, `"`, `""`) + `"`)
		if i == len(words)-1 {
			b.WriteByte('*')
		}
	}
	return b.String()
}
