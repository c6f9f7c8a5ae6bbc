package session_test

import (
	"log/slog"
	"testing"

	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
	"yui/transport"
	"yui/transport/transporttest"
)

// fakeEnv runs a session over transporttest.Fake, ready.
func fakeEnv(t *testing.T, f *transporttest.Fake) (*session.Session, *events, *logRecorder) {
	t.Helper()
	ev, lg := &events{}, &logRecorder{}
	s, err := session.New(session.Options{
		Preset:    settings.Preset{ID: "p-test", Name: "Yui", ChatID: testChatID, ContextWindow: 4096},
		Transport: f, ConfigDir: t.TempDir(), Voice: playback.Silent{CharsPerSecond: 10},
		Logger: slog.New(lg), OnEvent: ev.add,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	s.Start()
	f.SetState(transport.StateChange{From: transport.StateDisconnected, To: transport.StateReady, Code: -1})
	settle()
	return s, ev, lg
}

func TestFakeTransportCarriesTurnAndReply(t *testing.T) {
	bubble(t, func(t *testing.T) {
		f := transporttest.PushLike(0)
		s, ev, _ := fakeEnv(t, f)
		id := s.SendText("hi")
		settle()
		turns := f.Turns()
		if len(turns) != 1 || turns[0].Text != "hi" || turns[0].TurnID != id || !containsLine(turns[0].ClientContext, "trigger: user message") {
			t.Fatalf("turns %+v", turns)
		}
		f.Emit(transport.Speech{TurnID: id, Segments: []transport.Segment{{Speech: "Hello.", Cues: []transport.Cue{{EmotionID: "happy"}}}}},
			transport.Render{TurnID: id, Segments: []transport.Segment{{Speech: "Bye."}}},
			transport.TurnEnd{TurnID: id, Usage: &transport.Usage{InputTokens: 1, OutputTokens: 2, TotalTokens: 3}})
		sleep(5e9)
		all := ev.all()
		eq(t, "speech", texts(all, session.KindSpeechStart), []string{"Hello.", "Bye."})
		u := of[session.Usage](all)
		if len(u) != 1 || u[0].TotalTokens != 3 || u[0].ContextWindow != 4096 {
			t.Fatalf("usage %+v", u)
		}
	})
}

func TestFakeTransportWithoutPlaybackReports(t *testing.T) {
	bubble(t, func(t *testing.T) {
		f := &transporttest.Fake{Caps: transport.Capabilities{Images: true, MaxTurnBytes: 1 << 20}}
		s, ev, _ := fakeEnv(t, f)
		id := s.SendText("hi")
		settle()
		f.EndWait(transport.TurnWaitEnded{TurnID: id, Reason: transport.WaitPassed})
		f.Emit(transport.TurnEnd{TurnID: id})
		settle()
		eq(t, "failure", texts(ev.all(), session.KindFailureLine), []string{session.EnglishLines().GaveUp})
		if r := f.Reports(); len(r) != 0 {
			t.Fatalf("a wire without playback reports got %v", r)
		}
	})
}

func TestFakeTransportUnauthorizedIsTyped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		f := transporttest.PushLike(0)
		_, ev, _ := fakeEnv(t, f)
		f.SetState(transport.StateChange{From: transport.StateReady, To: transport.StateFailed, Err: transport.ErrUnauthorized, Code: -1})
		settle()
		socks := of[session.Socket](ev.all())
		last := socks[len(socks)-1]
		if last.State != "failed" || !last.Unauthorized {
			t.Fatalf("socket event %+v", last)
		}
	})
}

func TestFakeTransportStopButtonAbortsAndNewTurnMarks(t *testing.T) {
	bubble(t, func(t *testing.T) {
		f := transporttest.PushLike(0)
		s, _, _ := fakeEnv(t, f)
		a := s.SendText("one")
		settle()
		b := s.SendText("two")
		settle()
		eq(t, "marked by the new turn", f.Marked(), []string{a})
		if len(f.Stops()) != 0 {
			t.Fatalf("a new turn sent a stop: %v", f.Stops())
		}
		s.Stop()
		settle()
		st := f.Stops()
		if len(st) != 1 || len(st[0]) != 2 || st[0][1] != b {
			t.Fatalf("stops %v", st)
		}
	})
}
