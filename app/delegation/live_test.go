package delegation

import (
	"testing"
	"time"
)

var t0 = time.UnixMilli(1789365854947)

func ms(t time.Time) int64 { return t.UnixMilli() }

func TestLiveReplacedByEachFrame(t *testing.T) {
	var l Live
	l.Replace([]Item{{ID: "a", State: Running}, {ID: "b", State: Running}}, t0)
	l.Replace([]Item{{ID: "c", State: Running}}, t0)
	got := l.Items()
	if len(got) != 1 || got[0].ID != "c" {
		t.Fatalf("got %+v", got)
	}
	l.Replace(nil, t0)
	if len(l.Items()) != 0 {
		t.Fatal("empty frame did not empty the list")
	}
}

func TestVisibleHidesDoneAfterThirtyMinutes(t *testing.T) {
	var l Live
	l.Replace([]Item{
		{ID: "run", State: Running, StartedAt: ms(t0.Add(-time.Hour))},
		{ID: "fresh", State: Done, EndedAt: ms(t0.Add(-10 * time.Minute))},
		{ID: "old", State: Done, EndedAt: ms(t0.Add(-31 * time.Minute))},
		{ID: "edge", State: Done, EndedAt: ms(t0.Add(-30 * time.Minute))},
	}, t0)
	ids := func(items []Item) (out []string) {
		for _, it := range items {
			out = append(out, it.ID)
		}
		return
	}
	if got := ids(l.Visible(t0)); len(got) != 2 || got[0] != "run" || got[1] != "fresh" {
		t.Fatalf("visible %v", got)
	}
	if got := ids(l.Visible(t0.Add(-time.Millisecond))); len(got) != 3 {
		t.Fatalf("edge item should be visible just before 30 min: %v", got)
	}
	if got := ids(l.Visible(t0.Add(21 * time.Minute))); len(got) != 1 || got[0] != "run" {
		t.Fatalf("visible later %v", got)
	}
	if len(l.Items()) != 4 {
		t.Fatal("Items should keep hidden done items")
	}
}

func TestNextExpiry(t *testing.T) {
	var l Live
	if _, ok := l.NextExpiry(t0); ok {
		t.Fatal("empty list has an expiry")
	}
	l.Replace([]Item{
		{ID: "run", State: Running},
		{ID: "a", State: Done, EndedAt: ms(t0.Add(-10 * time.Minute))},
		{ID: "b", State: Done, EndedAt: ms(t0.Add(-20 * time.Minute))},
		{ID: "gone", State: Done, EndedAt: ms(t0.Add(-40 * time.Minute))},
	}, t0)
	next, ok := l.NextExpiry(t0)
	if !ok || !next.Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("next %v %v, want b's expiry in 10 min", next, ok)
	}
	next, ok = l.NextExpiry(t0.Add(10 * time.Minute))
	if !ok || !next.Equal(t0.Add(20*time.Minute)) {
		t.Fatalf("after b: %v %v", next, ok)
	}
	if _, ok := l.NextExpiry(t0.Add(20 * time.Minute)); ok {
		t.Fatal("expiry after every done item left")
	}
}

func TestDoneWithoutEndedAtUsesFirstSeen(t *testing.T) {
	var l Live
	l.Replace([]Item{{ID: "a", State: Done}}, t0)
	l.Replace([]Item{{ID: "a", State: Done}}, t0.Add(20*time.Minute)) // still the first sighting
	got := l.Items()[0]
	if got.EndedAt != ms(t0) {
		t.Fatalf("ended_at %d, want first seen %d", got.EndedAt, ms(t0))
	}
	if len(l.Visible(t0.Add(31*time.Minute))) != 0 {
		t.Fatal("done item without ended_at never expires")
	}
}

func TestLiveAppliesLimits(t *testing.T) {
	var l Live
	var in []Item
	for i := range 70 {
		in = append(in, Item{ID: string(rune('A' + i)), State: Running})
	}
	l.Replace(in, t0)
	if len(l.Items()) != MaxItems {
		t.Fatalf("live holds %d", len(l.Items()))
	}
}

func TestLiveReset(t *testing.T) {
	var l Live
	l.Replace([]Item{{ID: "a", State: Running}}, t0)
	l.Reset()
	if len(l.Items()) != 0 || len(l.Visible(t0)) != 0 {
		t.Fatal("reset left items")
	}
}

func TestLiveItemsAreCopies(t *testing.T) {
	var l Live
	l.Replace([]Item{{ID: "a", State: Running, Title: "t"}}, t0)
	l.Items()[0].Title = "changed"
	if l.Items()[0].Title != "t" {
		t.Fatal("Items aliases internal state")
	}
}
