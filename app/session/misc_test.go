package session_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"yui/app/playback"
	"yui/app/session"
	"yui/transport"
	"yui/transport/push"
)

func TestEnglishLinesParse(t *testing.T) {
	l := session.EnglishLines()
	if len(l.Thinking) != 2 || l.GaveUp != "Sorry, I gave up waiting for a reply — can you say that again?" || l.NoConnection != "I can't connect right now. Can you check the server?" {
		t.Fatalf("lines %+v", l)
	}
}

func TestParseLinesRejectsMissingLine(t *testing.T) {
	if _, err := session.ParseLines([]byte(`{"thinking":["x"]}`)); err == nil {
		t.Fatal("incomplete lines accepted")
	}
	if _, err := session.ParseLines([]byte(`{`)); err == nil {
		t.Fatal("bad JSON accepted")
	}
}

func TestKindsAreTheConsoleEvents(t *testing.T) {
	var names []string
	for _, k := range session.Kinds() {
		names = append(names, string(k))
	}
	want := "socket turn_sent composer plate cue speech_start speech_end filler failure_line error_line pill reasoning usage delegations turn_end tool_call tool_result"
	if strings.Join(names, " ") != want {
		t.Fatalf("kinds %v", names)
	}
}

func TestToolCallAndResultEvents(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
			return `{"posture":"standing"}`, nil, nil
		}}
		e := newEnv(t, envOpts{tools: []push.Tool{tool}})
		id := e.send("look at yourself")
		m := e.ev.mark()
		res, _, err := e.srv.CallTool(t.Context(), e.chat, id, "look", map[string]any{"at": "body"})
		settle()
		if err != nil || res != `{"posture":"standing"}` {
			t.Fatalf("result %q %v", res, err)
		}
		evs := e.ev.since(m)
		c, r := of(evs, session.KindToolCall), of(evs, session.KindToolResult)
		if len(c) != 1 || c[0].Name != "look" || c[0].TurnID != id || c[0].CallID == "" {
			t.Fatalf("tool_call %+v", c)
		}
		var args map[string]string
		if json.Unmarshal(c[0].Arguments, &args) != nil || args["at"] != "body" {
			t.Fatalf("arguments %s", c[0].Arguments)
		}
		if len(r) != 1 || r[0].CallID != c[0].CallID || r[0].Result != res {
			t.Fatalf("tool_result %+v", r)
		}
	})
}

func TestToolErrorResultEvent(t *testing.T) {
	bubble(t, func(t *testing.T) {
		tool := transport.ToolFunc{Name: "look", RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
			return "", nil, errString("not_found")
		}}
		e := newEnv(t, envOpts{tools: []push.Tool{tool}})
		id := e.send("x")
		m := e.ev.mark()
		res, _, _ := e.srv.CallTool(t.Context(), e.chat, id, "look", map[string]any{})
		settle()
		r := of(e.ev.since(m), session.KindToolResult)
		if res != "error: not_found" || len(r) != 1 || r[0].Result != res {
			t.Fatalf("result %q, events %+v", res, r)
		}
	})
}

type errString string

func (e errString) Error() string { return string(e) }

func TestNoEventsAfterClose(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("x")
		e.render(id, seg("A long sentence that is still playing."))
		e.must(e.s.Close())
		m := e.ev.mark()
		sleep(push.TurnFrameWait * 2)
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("events after close: %v", kinds(evs))
		}
		e.s.SendText("after close")
		e.s.Stop()
		settle()
		e.must(e.s.Close())
	})
}

func TestNewRequiresChatIDAndDir(t *testing.T) {
	if _, err := session.New(session.Options{ConfigDir: t.TempDir()}); err == nil {
		t.Fatal("no chat id accepted")
	}
	o := session.Options{}
	o.Preset.ChatID = testChatID
	if _, err := session.New(o); err == nil {
		t.Fatal("no config dir accepted")
	}
	o.ConfigDir = t.TempDir()
	if _, err := session.New(o); err == nil {
		t.Fatal("no transport accepted")
	}
}

func TestDrainWaitsForRunningTurnAndPlayback(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("x")
		done := make(chan struct{})
		go func() { e.s.Drain(context.Background()); close(done) }()
		settle()
		e.render(id, seg("0123456789"))
		e.turnEnd(id, nil)
		select {
		case <-done:
			t.Fatal("drained while speech plays")
		default:
		}
		sleep(1e9)
		select {
		case <-done:
		default:
			t.Fatal("not drained after playback")
		}
	})
}

func TestOnEventMayCallActions(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		var s *session.Session
		e.s.Close()
		ev := &events{}
		o := session.Options{ConfigDir: t.TempDir(), Voice: playback.Silent{CharsPerSecond: 10}, OnEvent: func(x session.Event) {
			ev.add(x)
			if x.Kind == session.KindSpeechStart {
				s.Stop()
			}
		}}
		o.Preset.ChatID = testChatID
		o.Preset.ChatBaseURL = "http://backend.test"
		o.Preset.Key = testKey
		o.Transport = pushTransport(t, o.Preset, nil, e.sHTTP(), nil)
		var err error
		s, err = session.New(o)
		e.must(err)
		defer s.Close()
		s.Start()
		settle()
		e.render("hermes-1", seg("One. Two. Three."))
		sleep(10e9)
		eq(t, "speech", texts(ev.all(), session.KindSpeechStart), []string{"One."})
	})
}
