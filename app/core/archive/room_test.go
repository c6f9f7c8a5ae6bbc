package archive

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/app/core/route"
	"yui/app/transcript"
	"yui/app/view"
	"yui/app/view/viewtest"
)

type host struct {
	st  Store
	dir string
}

func (h host) Store(preset string) Store {
	if preset != "p" {
		return nil
	}
	return h.st
}
func (h host) Name(string) string { return "Yui" }
func (h host) ExportDir() string  { return h.dir }

var t0 = time.UnixMilli(1_789_000_000_000)

// setup: a character whose history holds an earlier conversation of 120
// rows (one of them says "lighthouse") and the current one of 10.
func setup(t *testing.T) (*route.Table, *viewtest.Pages, *transcript.Store, string) {
	t.Helper()
	tr, err := transcript.Open(t.TempDir(), "p", nil, func() time.Time { return t0 })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	for i := range 120 {
		text := fmt.Sprint("line ", i)
		if i == 7 {
			text = "Do you remember the lighthouse?"
		}
		tr.Add(transcript.Entry{TurnID: fmt.Sprint("t", i), Kind: transcript.KindUser, Text: text})
	}
	tr.Clear()
	for i := range 10 {
		tr.Add(transcript.Entry{TurnID: fmt.Sprint("n", i), Kind: transcript.KindReply, Text: fmt.Sprint("reply ", i), State: "done"})
	}
	tr.Flush()
	pages := &viewtest.Pages{}
	dir := t.TempDir()
	tab := route.New(slog.New(slog.DiscardHandler))
	New(host{st: tr, dir: dir}, pages, slog.New(slog.DiscardHandler), func() time.Time { return t0 }).Routes(tab)
	return tab, pages, tr, dir
}

func ask(tab *route.Table, role, typ string, body any) {
	tab.Serve(view.Peer{Role: role, Preset: "p"}, view.MustEncode(typ, body))
}

// Scrolling back walks the whole history a page at a time, across
// conversations, until there is no more.
func TestScrollingBackWalksTheWholeHistory(t *testing.T) {
	tab, pages, tr, _ := setup(t)
	before := tr.Latest(50)[0].ID
	seen := 0
	for range 10 {
		ask(tab, view.RoleMessage, view.TypeHistoryMore, view.HistoryMore{Before: uint64(before)})
		last := pages.Last(view.RoleMessage, "p", view.TypeHistoryPage)
		var pg view.HistoryPage
		b, _ := json.Marshal(last)
		json.Unmarshal(b, &pg)
		if len(pg.Entries) == 0 || pg.Entries[len(pg.Entries)-1].ID >= before {
			t.Fatalf("page before %d: %+v", before, pg)
		}
		seen += len(pg.Entries)
		if pg.Entries[0].Conv != 1 {
			t.Fatalf("older rows are of conversation %d, want 1", pg.Entries[0].Conv)
		}
		before = pg.Entries[0].ID
		if !pg.More {
			break
		}
	}
	if seen != 120 {
		t.Fatalf("scrolled back through %d rows, want the earlier conversation's 120", seen)
	}
}

func TestSearchFindsAnEarlierConversation(t *testing.T) {
	tab, pages, _, _ := setup(t)
	ask(tab, view.RoleMessage, view.TypeHistorySearch, view.HistorySearch{Query: "lighthou"})
	res := pages.Last(view.RoleMessage, "p", view.TypeHistoryResults)
	hits, _ := res["hits"].([]any)
	if len(hits) != 1 || !strings.Contains(fmt.Sprint(hits[0]), "\x02lighthouse\x03") {
		t.Fatalf("results %v", res)
	}
	ask(tab, view.RoleMessage, view.TypeHistorySearch, view.HistorySearch{Query: `" OR *`})
	if res := pages.Last(view.RoleMessage, "p", view.TypeHistoryResults); res["error"] != nil {
		t.Fatalf("a query of operators failed: %v", res)
	}
}

func TestExportWritesMarkdownAndJSON(t *testing.T) {
	tab, pages, _, dir := setup(t)
	ask(tab, view.RoleMessage, view.TypeHistoryExport, view.HistoryExport{Conv: 1, Format: FormatMarkdown})
	got := pages.Last(view.RoleMessage, "p", view.TypeHistoryExported)
	path, _ := got["path"].(string)
	if filepath.Dir(path) != dir {
		t.Fatalf("exported %v, want a file in %s", got, dir)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(b), "# Conversation with Yui") || !strings.Contains(string(b), "**You**") ||
		!strings.Contains(string(b), "Do you remember the lighthouse?") || strings.Contains(string(b), "reply 3") {
		t.Fatalf("markdown %v:\n%s", err, b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("export mode %v", fi.Mode())
	}
	ask(tab, view.RoleMessage, view.TypeHistoryExport, view.HistoryExport{Format: FormatJSON}) // the current one
	got = pages.Last(view.RoleMessage, "p", view.TypeHistoryExported)
	b, err = os.ReadFile(got["path"].(string))
	var f exportFile
	if err != nil || json.Unmarshal(b, &f) != nil || f.Conversation != 2 || len(f.Entries) != 10 || f.Entries[9].Text != "reply 9" {
		t.Fatalf("json export %v: %s", err, b)
	}
	ask(tab, view.RoleMessage, view.TypeHistoryExport, view.HistoryExport{Conv: 1, Format: "pdf"})
	if got := pages.Last(view.RoleMessage, "p", view.TypeHistoryExported); got["error"] == nil {
		t.Fatalf("an unknown format exported: %v", got)
	}
}

// Only a message page asks; a pet page's or another role's request is
// refused (nothing is sent).
func TestOnlyMessagePagesAsk(t *testing.T) {
	tab, pages, _, _ := setup(t)
	for _, role := range []string{view.RolePet, view.RoleSettings, view.RoleShell} {
		ask(tab, role, view.TypeHistorySearch, view.HistorySearch{Query: "line"})
		ask(tab, role, view.TypeHistoryExport, view.HistoryExport{Conv: 1, Format: FormatJSON})
	}
	if got := pages.Got(view.RoleMessage, "p"); len(got) != 0 {
		t.Fatalf("answered %v", got)
	}
}
