package pushserver_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// The delegations list: reset, sent when connected, cut by code points, capped at 50.

func TestResetEndsDelegations(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		must(t, s.SetDelegations("yui-1", []push.Delegation{{ID: "d", Title: "t", StartedAt: 1, State: "running"}}))
		r := connect(t, s, "yui-1", nil)
		r.frames()
		r.send(push.Reset{})
		if f := r.next(); !reflect.DeepEqual(f, push.Delegations{Items: []push.Delegation{}}) {
			t.Errorf("after reset: %#v", f)
		}
		if d := s.Delegations("yui-1"); len(d) != 0 {
			t.Errorf("stored delegations = %+v", d)
		}
	})
}

func TestSetDelegationsSendsWhenConnected(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		r := connect(t, s, "yui-1", nil)
		r.frames()
		items := []push.Delegation{{ID: "d", Title: "t", StartedAt: 1, State: "done", EndedAt: 2, Status: "ok", Summary: "s"}}
		must(t, s.Send("yui-1", push.Delegations{Items: items}))
		if f := r.next(); !reflect.DeepEqual(f, push.Delegations{Items: items}) {
			t.Errorf("got %#v", f)
		}
	})
}

func TestDelegationCutsByCodePoints(t *testing.T) {
	title := strings.Repeat("é", 130) // 2 bytes each
	summary := strings.Repeat("漢", 2100)
	d := pushserver.CutDelegation(push.Delegation{Title: title + "\nsecond line", Summary: summary})
	if utf8.RuneCountInString(d.Title) != 120 || d.Title != strings.Repeat("é", 120) {
		t.Errorf("title = %d code points", utf8.RuneCountInString(d.Title))
	}
	if utf8.RuneCountInString(d.Summary) != 2000 || !utf8.ValidString(d.Summary) {
		t.Errorf("summary = %d code points", utf8.RuneCountInString(d.Summary))
	}
	if got := pushserver.CutDelegation(push.Delegation{Title: "first\r\nsecond"}).Title; got != "first" {
		t.Errorf("first line = %q", got)
	}
	short := push.Delegation{Title: "short", Summary: "fine"}
	if pushserver.CutDelegation(short) != short {
		t.Error("short item changed")
	}
	if pushserver.CutCodePoints("😀😀😀", 2) != "😀😀" || pushserver.CutCodePoints("abc", 0) != "" {
		t.Error("CutCodePoints")
	}
}

func TestDelegationListCappedAt50KeepingRunningAndRecent(t *testing.T) {
	var items []push.Delegation
	for i := 0; i < 60; i++ {
		items = append(items, push.Delegation{ID: fmt.Sprint("done-", i), State: "done", EndedAt: int64(i)})
	}
	items = append(items, push.Delegation{ID: "run-a", State: "running"}, push.Delegation{ID: "run-b", State: "running"})
	got := pushserver.CutDelegations(items)
	if len(got) != 50 {
		t.Fatalf("kept %d", len(got))
	}
	ids := map[string]bool{}
	for _, d := range got {
		ids[d.ID] = true
	}
	if !ids["run-a"] || !ids["run-b"] || !ids["done-59"] || ids["done-11"] || !ids["done-12"] {
		t.Errorf("kept %v", ids)
	}
	if got[0].ID != "done-12" || got[49].ID != "run-b" {
		t.Errorf("order not kept: %s ... %s", got[0].ID, got[49].ID)
	}
}
