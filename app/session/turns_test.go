package session_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"yui/app/session"
	"yui/transport/push"
)

func TestTurnIDsCountUpFromTheClock(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		b := e.send("two")
		n, err := strconv.ParseInt(a, 10, 64)
		if err != nil || n != time.Now().UnixMilli() {
			t.Fatalf("first id %q, want the clock in ms %d", a, time.Now().UnixMilli())
		}
		if b != strconv.FormatInt(n+1, 10) {
			t.Fatalf("second id %q, want %d", b, n+1)
		}
		turns := e.Turns()
		if len(turns) != 2 || turns[0].TurnID != a || turns[1].TurnID != b {
			t.Fatalf("backend got %+v", turns)
		}
	})
}

func TestBlankTextSendsNothing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		if id := e.send("  \n\t "); id != "" {
			t.Fatalf("blank text got id %q", id)
		}
		if len(e.Turns()) != 0 {
			t.Fatal("a blank turn was sent")
		}
	})
}

func TestTurnFrameCarriesTextAndContextBlock(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.send("  How did the tests go?  ")
		tu := e.Turns()[0]
		if tu.Text != "How did the tests go?" {
			t.Fatalf("text %q", tu.Text)
		}
		lines := strings.Split(tu.ClientContext, "\n")
		if lines[0] != "<client_context>" || lines[len(lines)-1] != "</client_context>" {
			t.Fatalf("block %q", tu.ClientContext)
		}
		for _, want := range []string{"time: ", "body: standing", "trigger: user message"} {
			if !strings.Contains(tu.ClientContext, "\n"+want) {
				t.Fatalf("block lacks %q:\n%s", want, tu.ClientContext)
			}
		}
		if strings.Contains(tu.ClientContext, "previous:") {
			t.Fatalf("first turn carries a previous line:\n%s", tu.ClientContext)
		}
		if len(tu.Images) != 0 {
			t.Fatal("images without an attachment")
		}
	})
}

func TestTurnSentEventCarriesIDAndText(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		id := e.send("hi")
		ts := of[session.TurnSent](e.ev.since(m))
		if len(ts) != 1 || ts[0].TurnID != id || ts[0].Text != "hi" {
			t.Fatalf("turn_sent %+v", ts)
		}
	})
}

func TestRunningStateFromTurnFrameToTurnEnd(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		id := e.send("hi")
		evs := e.ev.since(m)
		eq(t, "kinds", kinds(evs), []session.Kind{session.KindTurnSent, session.KindComposer, session.KindPlate, session.KindCue, session.KindFiller})
		if !evs[1].(session.Composer).Locked || evs[2].(session.Plate).Text != session.PlateThinking {
			t.Fatalf("running state %+v", evs)
		}
		m = e.ev.mark()
		e.render(id, seg("Hello."))
		if c := of[session.Composer](e.ev.since(m)); len(c) != 0 {
			t.Fatalf("render released the composer: %+v", c)
		}
		e.turnEnd(id, nil)
		evs = e.ev.since(m)
		c, p := of[session.Composer](evs), of[session.Plate](evs)
		if len(c) != 1 || c[0].Locked || len(p) != 1 || p[0].Text != "" {
			t.Fatalf("turn_end did not release: %v", kinds(evs))
		}
	})
}

func TestComposerStaysLockedWhileAnyTurnRuns(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.s.StartTurn("proactive", clientTrigger())
		settle()
		m := e.ev.mark()
		b := e.s.StartTurn("another", clientTrigger())
		settle()
		if c := of[session.Composer](e.ev.since(m)); len(c) != 0 {
			t.Fatalf("second running turn changed the composer: %+v", c)
		}
		e.turnEnd(a, nil)
		if c := of[session.Composer](e.ev.since(m)); len(c) != 0 {
			t.Fatalf("composer unlocked while %s runs", b)
		}
		e.turnEnd(b, nil)
		if c := of[session.Composer](e.ev.since(m)); len(c) != 1 || c[0].Locked {
			t.Fatalf("composer %+v", c)
		}
	})
}

func TestThinkingMotionAndFillerUntilFirstRender(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		id := e.send("hi")
		e.render(id, seg("Hello."))
		e.drain()
		eq(t, "script", script(e.ev.since(m)), []string{"cue e=thinking,m=thinking", "filler Let me think...", "cue e=neutral,m=idle", "say Hello.", "cue e=neutral"})
	})
}

func TestSpeechFrameCountsAsFirstRender(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.speech(id, seg("First sentence."))
		sc := script(e.ev.since(m))
		if len(sc) == 0 || sc[0] != "cue e=neutral,m=idle" {
			t.Fatalf("speech frame did not end thinking: %v", sc)
		}
	})
}

func TestFillersAlternate(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		a := e.send("one")
		e.turnEnd(a, nil)
		b := e.send("two")
		e.turnEnd(b, nil)
		c := e.send("three")
		e.turnEnd(c, nil)
		eq(t, "fillers", texts(e.ev.since(m), session.KindFiller), []string{"Let me think...", "Hmm...", "Let me think..."})
	})
}

func TestLaterFillerAfterWaitWithoutRender(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.send("hi")
		sleep(session.LaterFillerAfter - time.Millisecond)
		eq(t, "fillers before", texts(e.ev.since(m), session.KindFiller), []string{"Let me think..."})
		sleep(time.Millisecond)
		eq(t, "fillers after", texts(e.ev.since(m), session.KindFiller), []string{"Let me think...", "Just a sec..."})
		sleep(3 * session.LaterFillerAfter)
		if n := len(texts(e.ev.since(m), session.KindFiller)); n != 2 {
			t.Fatalf("later filler repeated: %d fillers", n)
		}
	})
}

func TestNoLaterFillerAfterRender(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		id := e.send("hi")
		e.render(id, seg("Hi."))
		sleep(2 * session.LaterFillerAfter)
		eq(t, "fillers", texts(e.ev.since(m), session.KindFiller), []string{"Let me think..."})
	})
}

func TestTurnRecordInTurnLog(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("secret words")
		recs := e.tlog.All("turn")
		if len(recs) != 1 || recs[0].Attrs["turn_id"] != id || recs[0].Attrs["spoke_text"] != false {
			t.Fatalf("turn log %s", e.tlog.Dump())
		}
		if strings.Contains(e.tlog.Dump()+e.log.Dump(), "secret words") || strings.Contains(e.log.Dump()+e.tlog.Dump(), testKey) {
			t.Fatal("turn text or key in a log")
		}
		if len(e.log.All("turn")) != 0 {
			t.Fatal("turn record in the app log")
		}
	})
}

func TestTurnBeforeReadyIsNetworkFailure(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{noStart: true})
		m := e.ev.mark()
		id := e.send("hi")
		evs := e.ev.since(m)
		f := of[session.FailureLine](evs)
		if len(f) != 1 || f[0].TurnID != id || f[0].Text != session.EnglishLines().NoConnection {
			t.Fatalf("events %+v", evs)
		}
		if len(of[session.TurnSent](evs)) != 0 || len(of[session.Composer](evs)) != 0 {
			t.Fatalf("a turn that was not sent shows running: %v", kinds(evs))
		}
	})
}

func TestBackendTurnIsNotRunning(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("I finished the report."))
		e.turnEnd("hermes-1", nil)
		e.drain()
		evs := e.ev.since(m)
		if len(of[session.Composer](evs)) != 0 || len(of[session.Filler](evs)) != 0 {
			t.Fatalf("backend turn showed running: %v", kinds(evs))
		}
		eq(t, "speech", texts(evs, session.KindSpeechStart), []string{"I finished the report."})
		if te := of[session.TurnEnd](evs); len(te) != 1 || te[0].TurnID != "hermes-1" {
			t.Fatalf("turn_end %+v", te)
		}
	})
}

func TestTurnEndForUnknownTurnIgnored(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.turnEnd("hermes-404", &push.Usage{TotalTokens: 5})
		e.turnEnd("12345", nil)
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("ignored turn_end produced %v", kinds(evs))
		}
		recs := e.log.All("push.turn_end")
		if len(recs) != 2 || recs[0].Attrs["held"] != false {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestTurnForgottenOnTurnEnd(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.turnEnd(id, nil)
		e.s.Stop()
		settle()
		if len(e.Stops()) != 0 {
			t.Fatalf("stop named a closed turn: %v", e.Stops())
		}
		m := e.ev.mark()
		e.turnEnd(id, nil)
		if len(of[session.TurnEnd](e.ev.since(m))) != 0 {
			t.Fatal("second turn_end of a forgotten turn shown")
		}
	})
}

func TestStartTurnCarriesItsTrigger(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.s.StartTurn("hello from Mio", clientTrigger())
		settle()
		tu := e.Turns()[0]
		if !strings.Contains(tu.ClientContext, "trigger: character Mio") || tu.Text != "hello from Mio" {
			t.Fatalf("turn %+v", tu)
		}
	})
}

// The thinking face ends with the thinking motion: a reply with no emotion
// cue is spoken with the neutral face, not the thinking one.
func TestReplyWithoutEmotionIsNotSpokenWithTheThinkingFace(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.render(id, seg("Plain answer."))
		face := "thinking"
		for _, ev := range e.ev.since(m) {
			if c, ok := ev.(session.Cue); ok && c.Cue.EmotionID != "" {
				face = c.Cue.EmotionID
			}
			if ev.Kind() == session.KindSpeechStart {
				if face != "neutral" {
					t.Fatalf("spoken with the %q face", face)
				}
				return
			}
		}
		t.Fatal("nothing was spoken")
	})
}
