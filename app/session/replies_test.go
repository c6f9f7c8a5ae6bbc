package session_test

import (
	"testing"
	"time"

	"yui/app/session"
	"yui/transport/push"
)

func TestRendersPlayInArrivalOrder(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("One."))
		e.render("hermes-2", seg("Two."))
		e.render("hermes-1", seg("Three."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"One.", "Two.", "Three."})
	})
}

func TestSegmentCuesRenderBeforeSpeech(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("All green.", push.Cue{EmotionID: "happy"}), seg("Want the slow ones?", push.Cue{EmotionID: "curious", EmotionText: "👂"}))
		e.drain()
		eq(t, "script", script(e.ev.since(m)), []string{"cue e=happy", "say All green.", "cue e=curious,t=👂", "say Want the slow ones?", "cue e=neutral"})
	})
}

func TestCuesMergeWithinSegment(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("Hi.", push.Cue{EmotionID: "happy", MotionID: "dance"}, push.Cue{EmotionID: "sad"}, push.Cue{EmotionID: ""}))
		e.drain()
		eq(t, "script", script(e.ev.since(m)), []string{"cue e=sad,m=dance", "say Hi.", "cue e=neutral"})
	})
}

func TestCuesResolvedAgainstVocabulary(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("Hi.", push.Cue{EmotionID: "ecstatic", MotionID: "backflip", Caption: "softly"}))
		e.drain()
		c := of[session.Cue](e.ev.since(m))
		if len(c) < 1 || c[0].Cue.EmotionID != "neutral" || c[0].Cue.MotionID != "idle" || c[0].Cue.Caption != "softly" {
			t.Fatalf("cue %+v", c)
		}
	})
}

func TestSilentRenderCuesPlayAtOnce(t *testing.T) {
	for _, speech := range []string{"", "[SILENT]", "  [SILENT] "} {
		t.Run(speech, func(t *testing.T) {
			bubble(t, func(t *testing.T) {
				e := newEnv(t, envOpts{})
				m := e.ev.mark()
				e.render("hermes-1", seg(speech, push.Cue{EmotionID: "sleepy"}))
				evs := e.ev.since(m)
				eq(t, "script", script(evs), []string{"cue e=sleepy"})
			})
		})
	}
}

func TestSilentTokenInsideTextIsSpoken(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("I said [SILENT] once."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"I said [SILENT] once."})
	})
}

func TestSilentCueWaitsForBoundaryWhileSpeechOwed(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("A sentence that plays for a while."))
		e.render("hermes-2", seg("", push.Cue{EmotionID: "happy"}))
		sleep(time.Second)
		if c := of[session.Cue](e.ev.since(m)); len(c) != 0 {
			t.Fatalf("silent cue fired while speech owed: %+v", c)
		}
		e.drain()
		eq(t, "script", script(e.ev.since(m)), []string{"say A sentence that plays for a while.", "cue e=happy", "cue e=neutral"})
	})
}

func TestEveryWaitingCueFiresAtFirstBoundary(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("Speaking now."))
		e.render("hermes-2", seg("", push.Cue{EmotionID: "happy"}))
		e.render("hermes-3", seg("[SILENT]", push.Cue{MotionID: "dance"}))
		e.render("hermes-4", seg("Then more."))
		e.drain()
		eq(t, "script", script(e.ev.since(m)), []string{"say Speaking now.", "cue e=happy", "cue m=dance", "say Then more.", "cue e=neutral"})
	})
}

func TestRenderOfClosedTurnStillPlays(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		e.turnEnd(id, nil)
		m := e.ev.mark()
		e.render(id, seg("After the end."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"After the end."})
	})
}

func TestRenderOfEarlierRunIDPlays(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("1000", seg("From an older run."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"From an older run."})
	})
}

func TestClosedBackendTurnNotOutstandingAgain(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.render("hermes-1", seg("One."))
		e.turnEnd("hermes-1", nil)
		e.render("hermes-1", seg("Late."))
		e.drain()
		e.s.Stop()
		settle()
		if len(e.Stops()) != 0 {
			t.Fatalf("stop named a closed backend turn: %v", e.Stops())
		}
	})
}

func TestSpeechFramesThenRenderClosesUtterance(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.speech(id, seg("First.", push.Cue{EmotionID: "happy"}))
		e.speech(id, seg("Second."))
		e.render(id, seg("First. Second. Third.", push.Cue{EmotionID: "happy"}))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"First.", "Second.", "Third."})
	})
}

func TestRepeatedSpeechFrameDropped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.speech(id, seg("Same line."))
		e.speech(id, seg("Same  line."))
		e.turnEnd(id, nil)
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"Same line."})
	})
}

func TestTurnEndClosesUtteranceSentencesFinish(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.speech(id, seg("One."), seg("Two."))
		e.turnEnd(id, nil)
		e.render(id, seg("One."))
		e.drain()
		// The render after turn_end opens a new utterance: no repeat skipping.
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"One.", "Two.", "One."})
	})
}

func TestOtherTurnFrameClosesOpenUtterance(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.speech(id, seg("Mine."))
		e.render("hermes-1", seg("News."))
		e.render(id, seg("Mine. More."))
		e.drain()
		// The backend turn's render closes the open utterance before it
		// plays; the turn's own render still repeats what its speech
		// frames said (speech rule 3), and that is not said twice.
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"Mine.", "News.", "More."})
	})
}

func TestFrameWaitClosesUtterance(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.speech(id, seg("Half."))
		sleep(push.TurnFrameWait)
		e.render(id, seg("Half."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"Half.", "Half."})
	})
}

func TestCueDuringAnotherTurnsThinkingLandsWhenItEnds(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.render("hermes-1", seg("", push.Cue{EmotionID: "surprised"}))
		if c := of[session.Cue](e.ev.since(m)); len(c) != 0 {
			t.Fatalf("cue landed during thinking: %+v", c)
		}
		e.render(id, seg("Answer."))
		e.drain()
		eq(t, "script", script(e.ev.since(m)), []string{"cue e=neutral,m=idle", "cue e=surprised", "say Answer.", "cue e=neutral"})
	})
}

func TestSpokenCueDuringThinkingLandsWhenItEnds(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		id := e.send("hi")
		m := e.ev.mark()
		e.render("hermes-1", seg("Report.", push.Cue{EmotionID: "happy"}))
		sleep(2 * time.Second)
		sc := script(e.ev.since(m))
		eq(t, "during thinking", sc, []string{"say Report."})
		e.render(id, seg("Answer."))
		e.drain()
		eq(t, "after", script(e.ev.since(m)), []string{"say Report.", "cue e=neutral,m=idle", "cue e=happy", "say Answer.", "cue e=neutral"})
	})
}

func TestInterruptDropsCueWaitingForThinking(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.send("hi")
		e.render("hermes-1", seg("", push.Cue{EmotionID: "surprised"}))
		m := e.ev.mark()
		e.s.Stop()
		settle()
		// The surprised cue never lands; the neutral ease-back is the
		// player going idle after the stop cut the filler it was speaking.
		eq(t, "script", script(e.ev.since(m)), []string{"cue e=neutral,m=idle", "cue e=neutral"})
	})
}

func TestInterruptDropsCueWaitingOnBoundary(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.render("hermes-1", seg("A long sentence plays here."))
		e.render("hermes-2", seg("", push.Cue{EmotionID: "happy"}))
		m := e.ev.mark()
		e.s.Stop()
		settle()
		sleep(10 * time.Second)
		for _, c := range of[session.Cue](e.ev.since(m)) {
			if c.TurnID != "" {
				t.Fatalf("a dropped cue fired after the interrupt: %+v", c)
			}
		}
	})
}

func TestPushRenderLogLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.render("hermes-1", seg("One."), seg("Two."))
		e.render("hermes-2", seg(""))
		r := e.tlog.All("push.render")
		if len(r) != 2 {
			t.Fatalf("turn log %s", e.tlog.Dump())
		}
		a, b := r[0].Attrs, r[1].Attrs
		if a["source"] != "test" || a["turn_id"] != "hermes-1" || a["segments"] != int64(2) || a["speech"] != true || a["owed"] != false {
			t.Fatalf("first %v", a)
		}
		if b["speech"] != false || b["owed"] != true {
			t.Fatalf("second %v", b)
		}
		if len(e.log.All("push.render")) != 0 {
			t.Fatal("push.render in the app log")
		}
	})
}

func TestPushSpeechLogLine(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.speech("hermes-1", seg("One."))
		r := e.log.All("push.speech")
		if len(r) != 1 || r[0].Attrs["turn_id"] != "hermes-1" || r[0].Attrs["segments"] != int64(1) || r[0].Attrs["dropped"] != nil {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestSpeechEventsPairAndCarryTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("One. Two."))
		e.drain()
		evs := e.ev.since(m)
		eq(t, "kinds", kinds(evs), []session.Kind{session.KindSpeechStart, session.KindSpeechEnd, session.KindSpeechStart, session.KindSpeechEnd, session.KindCue})
		for _, ev := range evs[:4] {
			turnID, muted := "", true
			switch x := ev.(type) {
			case session.SpeechStart:
				turnID, muted = x.TurnID, x.Muted
			case session.SpeechEnd:
				turnID, muted = x.TurnID, x.Muted
			}
			if turnID != "hermes-1" || muted {
				t.Fatalf("event %+v", ev)
			}
		}
	})
}

func TestSpeechPacedBySilentVoice(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		start := time.Now()
		e.render("hermes-1", seg("0123456789")) // 10 characters at 10/s
		e.drain()
		if d := time.Since(start); d != time.Second {
			t.Fatalf("played for %v", d)
		}
		if len(of[session.SpeechEnd](e.ev.since(m))) != 1 {
			t.Fatal("no speech_end")
		}
	})
}

func TestEmojiStrippedFromBubble(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.render("hermes-1", seg("All green 🎉."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"All green ."})
	})
}
