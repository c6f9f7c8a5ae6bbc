package pushserver_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"testing/synctest"
	"yui/transport/push"
	"yui/transport/pushserver"

	"github.com/coder/websocket"
)

// Frames held for an absent client: replayed in order, capped, errors only to who accepts them.

func TestFramesHeldForAnAbsentClientReplayInOrder(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{})
		a := connect(t, s, "yui-1", nil)
		a.frames()
		a.c.Close(websocket.StatusNormalClosure, "")
		synctest.Wait()
		if s.Connected("yui-1") {
			t.Fatal("still connected")
		}
		must(t, s.SendRender("yui-1", push.Render{TurnID: "1", Segments: []push.Segment{{Speech: "one"}}}))
		if err := s.SendSpeech("yui-1", push.Speech{TurnID: "1"}); !errors.Is(err, pushserver.ErrNotConnected) {
			t.Errorf("speech while away = %v", err)
		}
		if err := s.SendReasoning("yui-1", "1", "x"); !errors.Is(err, pushserver.ErrNotConnected) {
			t.Errorf("reasoning while away = %v", err)
		}
		if err := s.SendToolStatus("yui-1", "1", "running", "x"); !errors.Is(err, pushserver.ErrNotConnected) {
			t.Errorf("tool_status while away = %v", err)
		}
		must(t, s.SendTurnEnd("yui-1", "1", nil))
		must(t, s.SendError("yui-1", "2", "boom"))
		must(t, s.SendTurnEnd("yui-1", "2", nil))
		b := connect(t, s, "yui-1", nil)
		got := b.frames()
		want := []push.Frame{
			push.Ready{ChatID: "yui-1"},
			push.Delegations{Items: []push.Delegation{}},
			push.Render{TurnID: "1", Source: "pushserver", Segments: []push.Segment{{Speech: "one"}}},
			push.TurnEnd{TurnID: "1"},
			push.ErrorFrame{TurnID: "2", Message: "boom"},
			push.TurnEnd{TurnID: "2"},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("replay:\n got %#v\nwant %#v", got, want)
		}
		c := connect(t, s, "yui-1", nil)
		if fs := c.frames(); len(fs) != 2 {
			t.Errorf("held frames replayed twice: %+v", fs)
		}
	})
}

func TestHeldFramesAreCapped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{HoldLimit: 3})
		for i := 1; i <= 5; i++ {
			must(t, s.SendTurnEnd("yui-1", fmt.Sprint(i), nil))
		}
		fs := connect(t, s, "yui-1", nil).frames()
		if len(fs) != 5 || fs[2] != (push.TurnEnd{TurnID: "3"}) || fs[4] != (push.TurnEnd{TurnID: "5"}) {
			t.Errorf("frames = %+v", fs)
		}
	})
}

func TestErrorFrameOnlyToClientsThatAcceptIt(t *testing.T) {
	for _, tc := range []struct {
		name    string
		accepts any
		want    push.Frame
	}{
		{"accepts error", []string{"error"}, push.ErrorFrame{TurnID: "1", Message: "429"}},
		{"accepts absent", nil, push.Render{TurnID: "1", Source: "pushserver", Segments: []push.Segment{{Speech: "Sorry, something went wrong on my side."}}}},
		{"accepts empty", []string{}, push.Render{TurnID: "1", Source: "pushserver", Segments: []push.Segment{{Speech: "Sorry, something went wrong on my side."}}}},
		{"accepts not a list", "error", push.Render{TurnID: "1", Source: "pushserver", Segments: []push.Segment{{Speech: "Sorry, something went wrong on my side."}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				s := newServer(t, pushserver.Config{})
				r := connect(t, s, "yui-1", map[string]any{"accepts": tc.accepts})
				r.frames()
				must(t, s.SendError("yui-1", "1", "429"))
				if f := r.next(); !reflect.DeepEqual(f, tc.want) {
					t.Errorf("got %#v", f)
				}
			})
		})
	}
}

func TestHeldErrorFollowsTheLatestHello(t *testing.T) {
	bubble(t, func(t *testing.T) {
		s := newServer(t, pushserver.Config{FailureLine: func(m string) string { return "failed: " + m }})
		must(t, s.SendError("yui-1", "1", "boom"))
		fs := connect(t, s, "yui-1", map[string]any{"accepts": nil}).frames()
		if len(fs) != 3 || !reflect.DeepEqual(fs[2], push.Render{TurnID: "1", Source: "pushserver", Segments: []push.Segment{{Speech: "failed: boom"}}}) {
			t.Errorf("frames = %#v", fs)
		}
	})
}
