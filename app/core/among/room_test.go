package among

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/settings"
	"yui/app/talk"
)

type fakeHost struct {
	mu     sync.Mutex
	cast   map[string]string // name → id, the enabled and shown ones
	talk   settings.Talk
	turns  []string
	said   []string
	refuse bool // StartTurn fails (her session is gone)
}

func (h *fakeHost) Find(name string) (string, bool) {
	for n, id := range h.cast {
		if strings.EqualFold(n, name) {
			return id, true
		}
	}
	return "", false
}

func (h *fakeHost) Name(id string) string {
	for n, i := range h.cast {
		if i == id {
			return n
		}
	}
	return id
}

func (h *fakeHost) StartTurn(id, from, text string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.refuse {
		return false
	}
	h.turns = append(h.turns, id+" <- "+from+": "+text)
	return true
}

func (h *fakeHost) Said(from, to, text string) { h.said = append(h.said, from+">"+to) }
func (h *fakeHost) Talk() settings.Talk        { return h.talk }

func newRoom(t *testing.T, manners settings.Talk) (*Room, *fakeHost) {
	h := &fakeHost{cast: map[string]string{"Yui": "a", "Mika": "b"}, talk: manners}
	return New(Config{Host: h}), h
}

// A and B address each other until the cap; the hop past it is busy,
// and so is every later one until the user speaks.
func TestChainStopsAtTheCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, h := newRoom(t, settings.Talk{MaxHops: 4, PerMinute: 30})
		from, to := "a", "Mika"
		for i := range 4 {
			if err := r.Address(from, to, "hop"); err != nil {
				t.Fatalf("hop %d: %v", i+1, err)
			}
			from, to = map[string]string{"a": "b", "b": "a"}[from], map[string]string{"Mika": "Yui", "Yui": "Mika"}[to]
		}
		if len(h.turns) != 4 || h.turns[0] != "b <- Yui: hop" || h.turns[1] != "a <- Mika: hop" || len(h.said) != 4 {
			t.Fatalf("turns %v said %v", h.turns, h.said)
		}
		for range 3 {
			time.Sleep(10 * time.Minute) // time does not lift the cap
			if err := r.Address(from, to, "one more"); !errors.Is(err, talk.ErrBusy) {
				t.Fatalf("past the cap: %v", err)
			}
		}
		r.UserSpoke()
		if err := r.Address("a", "Mika", "again"); err != nil || len(h.turns) != 5 {
			t.Fatalf("after the user spoke: %v", err)
		}
	})
}

func TestEveryWayTheChainEnds(t *testing.T) {
	for _, why := range []string{"stop", "mute", "new_conversation"} {
		t.Run(why, func(t *testing.T) {
			r, h := newRoom(t, settings.Talk{})
			if err := r.Address("a", "Mika", "hi"); err != nil {
				t.Fatal(err)
			}
			r.End(why)
			if err := r.Address("b", "Yui", "hi back"); !errors.Is(err, talk.ErrBusy) {
				t.Fatalf("after %s: %v", why, err)
			}
			r.UserSpoke()
			if err := r.Address("b", "Yui", "hi back"); err != nil || len(h.turns) != 2 {
				t.Fatalf("after the user spoke: %v %v", err, h.turns)
			}
		})
	}
	// User input mid-chain starts the count afresh.
	r, _ := newRoom(t, settings.Talk{MaxHops: 2, PerMinute: 30})
	r.Address("a", "Mika", "1")
	r.Address("b", "Yui", "2")
	r.UserSpoke()
	for i := range 2 {
		if err := r.Address("a", "Mika", "x"); err != nil {
			t.Fatalf("hop %d after the user: %v", i, err)
		}
	}
}

func TestRatePerMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r, _ := newRoom(t, settings.Talk{MaxHops: 20, PerMinute: 3})
		for i := range 3 {
			if err := r.Address("a", "Mika", "x"); err != nil {
				t.Fatalf("hop %d: %v", i, err)
			}
			time.Sleep(10 * time.Second)
		}
		if err := r.Address("a", "Mika", "x"); !errors.Is(err, talk.ErrBusy) {
			t.Fatalf("a fourth in a minute: %v", err)
		}
		time.Sleep(31 * time.Second) // the first hop is now over a minute old
		if err := r.Address("a", "Mika", "x"); err != nil {
			t.Fatalf("a minute after the first: %v", err)
		}
		if err := r.Address("a", "Mika", "x"); !errors.Is(err, talk.ErrBusy) {
			t.Fatalf("still three in the minute: %v", err)
		}
	})
}

func TestUnknownHerselfAndAGoneSession(t *testing.T) {
	r, h := newRoom(t, settings.Talk{MaxHops: 1})
	for _, c := range []struct{ from, to string }{{"a", "Nobody"}, {"a", "yui"}} {
		if err := r.Address(c.from, c.to, "x"); !errors.Is(err, talk.ErrUnknown) {
			t.Fatalf("%s → %s: %v", c.from, c.to, err)
		}
	}
	h.refuse = true
	if err := r.Address("a", "Mika", "x"); !errors.Is(err, talk.ErrUnknown) {
		t.Fatalf("a character with no session: %v", err)
	}
	h.refuse = false
	if err := r.Address("a", "Mika", "x"); err != nil {
		t.Fatalf("refusals used up the cap: %v", err)
	}
}
