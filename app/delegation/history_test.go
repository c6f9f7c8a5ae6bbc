package delegation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil)) }

func open(t *testing.T, dir string) *History {
	t.Helper()
	h, err := OpenHistory(dir, "yui", quiet())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func byID(items []Item) map[string]Item {
	m := map[string]Item{}
	for _, it := range items {
		m[it.ID] = it
	}
	return m
}

func TestHistoryKeepsEveryItemSeen(t *testing.T) {
	h := open(t, t.TempDir())
	h.Merge([]Item{{ID: "a", State: Running, StartedAt: 1}}, t0)
	h.Merge([]Item{{ID: "a", State: Done, StartedAt: 1, EndedAt: 5, Status: StatusOK, Summary: "fine"}, {ID: "b", State: Running, StartedAt: 2}}, t0)
	got := byID(h.Items())
	if len(got) != 2 || got["a"].Summary != "fine" || got["a"].State != Done || got["b"].State != Running {
		t.Fatalf("history %+v", h.Items())
	}
}

func TestHistoryItemsNewestFirst(t *testing.T) {
	h := open(t, t.TempDir())
	h.Merge([]Item{{ID: "old", State: Running, StartedAt: 1}, {ID: "new", State: Running, StartedAt: 9}, {ID: "mid", State: Running, StartedAt: 5}}, t0)
	items := h.Items()
	if items[0].ID != "new" || items[1].ID != "mid" || items[2].ID != "old" {
		t.Fatalf("order %+v", items)
	}
}

func TestRunningItemLeftOutBecomesUnknown(t *testing.T) {
	h := open(t, t.TempDir())
	h.Merge([]Item{{ID: "a", State: Running, StartedAt: 1}, {ID: "b", State: Running, StartedAt: 2}}, t0)
	later := t0.Add(time.Minute)
	h.Merge([]Item{{ID: "b", State: Running, StartedAt: 2}}, later)
	a := byID(h.Items())["a"]
	if a.State != Done || a.Status != StatusUnknown || a.EndedAt != later.UnixMilli() {
		t.Fatalf("left-out running item %+v", a)
	}
	if b := byID(h.Items())["b"]; b.State != Running {
		t.Fatalf("listed item changed %+v", b)
	}
}

func TestDoneItemLeftOutStaysAsIs(t *testing.T) {
	h := open(t, t.TempDir())
	h.Merge([]Item{{ID: "a", State: Done, EndedAt: 7, Status: StatusError}}, t0)
	h.Merge(nil, t0.Add(time.Hour))
	if a := byID(h.Items())["a"]; a.Status != StatusError || a.EndedAt != 7 {
		t.Fatalf("done item rewritten %+v", a)
	}
}

func TestHistoryCapDropsOldestDoneFirst(t *testing.T) {
	h := open(t, t.TempDir())
	// 5 running items that are the oldest of all, then done items in frames.
	var running []Item
	for i := range 5 {
		running = append(running, Item{ID: fmt.Sprintf("run%d", i), State: Running, StartedAt: int64(i)})
	}
	n := 0
	for frame := 0; frame < 5; frame++ {
		items := append([]Item(nil), running...)
		for range 45 {
			items = append(items, Item{ID: fmt.Sprintf("done%03d", n), State: Done, StartedAt: int64(100 + n), EndedAt: int64(100 + n), Status: StatusOK})
			n++
		}
		if err := h.Merge(items, t0); err != nil {
			t.Fatal(err)
		}
	}
	got := byID(h.Items())
	if len(got) != MaxHistory {
		t.Fatalf("history holds %d, want %d", len(got), MaxHistory)
	}
	for i := range 5 {
		if _, ok := got[fmt.Sprintf("run%d", i)]; !ok {
			t.Fatalf("running item run%d dropped", i)
		}
	}
	// 225 done seen, 195 fit: the 30 oldest are gone.
	if _, ok := got["done029"]; ok {
		t.Fatal("oldest done item kept")
	}
	if _, ok := got["done030"]; !ok {
		t.Fatal("a newer done item was dropped")
	}
}

func TestHistoryNeverDropsRunningEvenPastCap(t *testing.T) {
	h := open(t, t.TempDir())
	h.Merge([]Item{{ID: "done", State: Done, StartedAt: 0, EndedAt: 1}}, t0)
	// A frame lists at most 50 items, so 250 running items are put in
	// place directly; trim is what Merge and load both run.
	var items []Item
	for i := range 250 {
		items = append(items, Item{ID: fmt.Sprintf("r%03d", i), State: Running, StartedAt: int64(10 + i)})
	}
	h.mu.Lock()
	h.items = append(h.items, items...)
	h.items = trim(sortItems(h.items))
	h.mu.Unlock()
	got := byID(h.Items())
	if len(got) != 250 {
		t.Fatalf("holds %d, want all 250 running", len(got))
	}
	if _, ok := got["done"]; ok {
		t.Fatal("done item should go first")
	}
}

func TestHistoryPersistsAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	h := open(t, dir)
	h.Merge([]Item{{ID: "a", Title: "Sort the list", State: Done, StartedAt: 1, EndedAt: 2, Status: StatusOK, Summary: "done"}}, t0)
	st, err := os.Stat(h.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("file %v %v", err, st)
	}
	h2 := open(t, dir)
	if got := h2.Items(); len(got) != 1 || got[0].Summary != "done" || got[0].Title != "Sort the list" {
		t.Fatalf("after restart %+v", got)
	}
}

// The JSON file of an older Yui is imported whole, once, and kept as
// .bak.
func TestHistoryImportsTheOlderFile(t *testing.T) {
	dir := t.TempDir()
	legacy := filepath.Join(dir, "delegation-history-yui.json")
	os.WriteFile(legacy, []byte(`{"items":[{"id":"a","title":"x","started_at":3,"state":"running"},`+
		`{"id":"b","title":"Sort","started_at":1,"state":"done","ended_at":2,"status":"ok","summary":"sorted"}]}`), 0o600)
	h := open(t, dir)
	want := []Item{{ID: "a", Title: "x", StartedAt: 3, State: Running}, {ID: "b", Title: "Sort", StartedAt: 1, State: Done, EndedAt: 2, Status: StatusOK, Summary: "sorted"}}
	if got := h.Items(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("imported %+v, want %+v", got, want)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Fatalf("the older file is still there: %v", err)
	}
	if _, err := os.Stat(legacy + ".bak"); err != nil {
		t.Fatalf("no backup: %v", err)
	}
	h.Close()
	os.Rename(legacy+".bak", legacy) // put back: not imported twice
	os.WriteFile(legacy, []byte(`{"items":[{"id":"c","title":"late","started_at":9,"state":"running"}]}`), 0o600)
	if got := ids(open(t, dir).Items()); got != "a b" {
		t.Fatalf("after a second start %q, want \"a b\"", got)
	}
}

func TestHistoryWritesOnlyOnChange(t *testing.T) {
	dir := t.TempDir()
	h := open(t, dir)
	frame := []Item{{ID: "a", State: Running, StartedAt: 3}}
	h.Merge(frame, t0)
	if h.writes != 1 {
		t.Fatalf("%d writes for one change", h.writes)
	}
	if err := h.Merge(frame, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if h.writes != 1 {
		t.Fatal("unchanged history was written")
	}
}

func TestCorruptHistorySetAsideAtOpen(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(legacyPath(dir, "yui"), []byte("{garbage"), 0o600)
	var logBuf bytes.Buffer
	h2, err := OpenHistory(dir, "yui", slog.New(slog.NewTextHandler(&logBuf, nil)))
	if err != nil {
		t.Fatalf("corrupt file is an error: %v", err)
	}
	if len(h2.Items()) != 0 {
		t.Fatal("items from a corrupt file")
	}
	if b, err := os.ReadFile(legacyPath(dir, "yui") + ".bad"); err != nil || string(b) != "{garbage" {
		t.Fatalf("not set aside: %v %q", err, b)
	}
	if !strings.Contains(logBuf.String(), "delegation_history.corrupt") {
		t.Fatal("not logged")
	}
	if err := h2.Merge([]Item{{ID: "a", State: Running}}, t0); err != nil {
		t.Fatalf("history unusable after corrupt file: %v", err)
	}
}

func TestCorruptFileNeverWipesMemory(t *testing.T) {
	dir := t.TempDir()
	h := open(t, dir)
	h.Merge([]Item{{ID: "keep", State: Done, StartedAt: 1, EndedAt: 2, Status: StatusOK}}, t0)
	os.WriteFile(legacyPath(dir, "yui"), []byte("not json at all"), 0o600)
	if err := h.Reload(); err != nil {
		t.Fatal(err)
	}
	if got := byID(h.Items()); len(got) != 1 || got["keep"].Status != StatusOK {
		t.Fatalf("memory wiped: %+v", h.Items())
	}
	if _, err := os.Stat(legacyPath(dir, "yui") + ".bad"); err != nil {
		t.Fatal("corrupt file not set aside on reload")
	}
	// the next change rewrites a good file from memory
	h.Merge([]Item{{ID: "new", State: Running, StartedAt: 5}}, t0)
	h2 := open(t, dir)
	if got := byID(h2.Items()); len(got) != 2 {
		t.Fatalf("rewritten file holds %+v", h2.Items())
	}
}

func TestReloadAddsItemsOnlyTheFileHas(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	b := open(t, dir)
	a.Merge([]Item{{ID: "x", State: Done, StartedAt: 1, EndedAt: 2, Status: StatusOK}}, t0)
	b.Merge([]Item{{ID: "y", State: Running, StartedAt: 2}}, t0) // overwrites the file
	a.Reload()
	if got := byID(a.Items()); len(got) != 2 {
		t.Fatalf("reload merged %+v", a.Items())
	}
}

func TestHistoryLoadCleansFile(t *testing.T) {
	dir := t.TempDir()
	f := historyFile{Items: []Item{
		{ID: "", State: Running},
		{ID: "a", State: "weird"},
		{ID: "b", State: Done, Title: strings.Repeat("t", 200)},
		{ID: "b", State: Running},
	}}
	data, _ := json.Marshal(f)
	os.WriteFile(legacyPath(dir, "yui"), data, 0o600)
	got := open(t, dir).Items()
	if len(got) != 1 || got[0].ID != "b" || len(got[0].Title) != MaxTitle || got[0].Status != StatusUnknown {
		t.Fatalf("loaded %+v", got)
	}
}

func TestHistoryLoadKeepsMoreThanFiftyItems(t *testing.T) {
	dir := t.TempDir()
	var f historyFile
	for i := range 120 {
		f.Items = append(f.Items, Item{ID: fmt.Sprint(i), State: Done, StartedAt: int64(i), EndedAt: int64(i), Status: StatusOK})
	}
	data, _ := json.Marshal(f)
	os.WriteFile(legacyPath(dir, "yui"), data, 0o600)
	if got := open(t, dir).Items(); len(got) != 120 {
		t.Fatalf("loaded %d items, want 120", len(got))
	}
}

// A database that cannot be opened (its path taken by a directory) keeps
// the history in memory: usable, every save an error that says so, and
// saved once it opens.
func TestHistoryWithoutItsDatabaseKeepsMemory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history-yui.db")
	os.MkdirAll(path, 0o700)
	var logBuf bytes.Buffer
	h, err := OpenHistory(dir, "yui", slog.New(slog.NewTextHandler(&logBuf, nil)))
	if err == nil || h == nil {
		t.Fatalf("want a usable history and an error, got %v %v", h, err)
	}
	err = h.Merge([]Item{{ID: "a", State: Running}}, t0)
	if err == nil || !strings.Contains(err.Error(), "delegation: save history") {
		t.Fatalf("want wrapped save error, got %v", err)
	}
	if len(h.Items()) != 1 || !strings.Contains(logBuf.String(), "delegation_history.not_saved") {
		t.Fatalf("merged item lost on write failure, or not logged: %s", logBuf.String())
	}
	os.Remove(path)
	if err := h.Merge([]Item{{ID: "b", State: Running, StartedAt: 1}}, t0); err != nil {
		t.Fatal(err)
	}
	h.Close()
	if got := ids(open(t, dir).Items()); got != "b a" {
		t.Fatalf("saved once it opened: %q", got)
	}
}

func TestHistoryPerPreset(t *testing.T) {
	dir := t.TempDir()
	a, _ := OpenHistory(dir, "a", quiet())
	b, _ := OpenHistory(dir, "a/../b", quiet())
	if a.Path() == b.Path() || filepath.Dir(b.Path()) != dir {
		t.Fatalf("paths %s %s", a.Path(), b.Path())
	}
	a.Merge([]Item{{ID: "x", State: Running}}, t0)
	b2, _ := OpenHistory(dir, "a/../b", quiet())
	if len(b2.Items()) != 0 {
		t.Fatal("presets share a history")
	}
}

func TestDoneWithoutEndedAtInHistory(t *testing.T) {
	h := open(t, t.TempDir())
	h.Merge([]Item{{ID: "a", State: Done}}, t0)
	h.Merge([]Item{{ID: "a", State: Done}}, t0.Add(time.Hour))
	if a := byID(h.Items())["a"]; a.EndedAt != t0.UnixMilli() {
		t.Fatalf("ended_at %d, want first seen", a.EndedAt)
	}
}

func TestHistoryConcurrentUse(t *testing.T) {
	h := open(t, t.TempDir())
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Go(func() {
			h.Merge([]Item{{ID: fmt.Sprint(i), State: Running, StartedAt: int64(i)}}, t0)
			h.Items()
			h.Reload()
		})
	}
	wg.Wait()
}

func TestSecondCorruptionKeptBesideTheFirst(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(legacyPath(dir, "yui"), []byte("{first"), 0o600)
	open(t, dir)
	os.WriteFile(legacyPath(dir, "yui"), []byte("{second"), 0o600)
	open(t, dir)
	for name, want := range map[string]string{".bad": "{first", ".bad.1": "{second"} {
		if b, err := os.ReadFile(legacyPath(dir, "yui") + name); err != nil || string(b) != want {
			t.Fatalf("%s: %v %q, want %q", name, err, b, want)
		}
	}
}

func ids(items []Item) string {
	var out []string
	for _, it := range items {
		out = append(out, it.ID)
	}
	return strings.Join(out, " ")
}
