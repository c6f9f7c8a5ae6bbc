package delegation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestItemJSONMatchesFrame(t *testing.T) {
	frame := `{"id":"d-5a03","title":"Check log file sizes","started_at":1789365123000,"state":"done","ended_at":1789365701000,"status":"ok","summary":"All three logs are under 10 MB."}`
	var it Item
	if err := json.Unmarshal([]byte(frame), &it); err != nil {
		t.Fatal(err)
	}
	back, _ := json.Marshal(it)
	if string(back) != frame {
		t.Fatalf("round trip\n got %s\nwant %s", back, frame)
	}
	running, _ := json.Marshal(Item{ID: "d-7f21", Title: "Sort", StartedAt: 1, State: Running})
	if string(running) != `{"id":"d-7f21","title":"Sort","started_at":1,"state":"running"}` {
		t.Fatalf("running item %s", running)
	}
}

func TestCleanLimits(t *testing.T) {
	long := strings.Repeat("あ", 130)
	sum := strings.Repeat("é", 2100)
	got := Clean([]Item{{ID: "a", Title: long, State: Done, Summary: sum, Status: StatusOK}})
	if n := utf8.RuneCountInString(got[0].Title); n != MaxTitle {
		t.Fatalf("title %d code points", n)
	}
	if n := utf8.RuneCountInString(got[0].Summary); n != MaxSummary {
		t.Fatalf("summary %d code points", n)
	}
	if !utf8.ValidString(got[0].Title) || !utf8.ValidString(got[0].Summary) {
		t.Fatal("cut produced invalid UTF-8")
	}
}

func TestCleanCapsAtFiftyItems(t *testing.T) {
	var in []Item
	for i := range 60 {
		in = append(in, Item{ID: fmt.Sprint(i), State: Running})
	}
	got := Clean(in)
	if len(got) != MaxItems || got[0].ID != "0" || got[49].ID != "49" {
		t.Fatalf("kept %d items (%s..%s)", len(got), got[0].ID, got[len(got)-1].ID)
	}
}

func TestCleanDropsMalformedAndDuplicates(t *testing.T) {
	got := Clean([]Item{
		{ID: "", State: Running},
		{ID: "x", State: "paused"},
		{ID: "a", State: Running, Title: "first"},
		{ID: "a", State: Done, Title: "second"},
		{ID: "b", State: Done},
	})
	if len(got) != 2 || got[0].Title != "first" || got[1].ID != "b" {
		t.Fatalf("got %+v", got)
	}
	if got[1].Status != StatusUnknown {
		t.Fatalf("done without status = %q, want unknown", got[1].Status)
	}
}

func TestCleanRunningLosesDoneFields(t *testing.T) {
	got := Clean([]Item{{ID: "a", State: Running, EndedAt: 5, Status: "ok", Summary: "s"}})
	if got[0].EndedAt != 0 || got[0].Status != "" || got[0].Summary != "" {
		t.Fatalf("got %+v", got[0])
	}
}

func TestCleanInvalidUTF8(t *testing.T) {
	got := Clean([]Item{{ID: "a", State: Done, Title: "a\xffb"}})
	if got[0].Title != "a\uFFFDb" {
		t.Fatalf("got %q", got[0].Title)
	}
}

func TestCleanDoesNotAliasInput(t *testing.T) {
	in := []Item{{ID: "a", State: Running, Status: "x"}}
	Clean(in)
	if in[0].Status != "x" {
		t.Fatal("Clean modified its input")
	}
}
