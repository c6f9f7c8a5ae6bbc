package session_test

import (
	"slices"
	"testing"

	"yui/app/clientctx"
	"yui/app/session"
	"yui/transport"
	"yui/transport/push"
)

func TestStopButtonSendsOneStopNamingOutstandingTurns(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.s.StartTurn("one", clientTrigger())
		b := e.s.StartTurn("two", clientTrigger())
		settle()
		e.render("hermes-3", seg("A report."))
		e.s.Stop()
		settle()
		s := e.Stops()
		if len(s) != 1 {
			t.Fatalf("stop frames %v", s)
		}
		eq(t, "stop ids", s[0], []string{"hermes-3", a, b})
		if r := e.log.All("push.stop"); len(r) != 1 || r[0].Attrs["turns"] != int64(3) {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestStopWithNothingOutstandingSendsNoFrame(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.s.Stop()
		settle()
		if len(e.Stops()) != 0 {
			t.Fatalf("stop frames %v", e.Stops())
		}
	})
}

func TestSecondStopNamesEveryOutstandingTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.s.StartTurn("one", clientTrigger())
		settle()
		e.s.Stop()
		settle()
		b := e.s.StartTurn("two", clientTrigger())
		settle()
		e.s.Stop()
		e.s.Stop()
		settle()
		// The spec: a stop names "every turn that was outstanding on the
		// chat at that moment"; a stays outstanding until its turn_end.
		s := e.Stops()
		if len(s) != 3 || !slices.Equal(s[0], []string{a}) || !slices.Equal(s[1], []string{a, b}) || !slices.Equal(s[2], []string{a, b}) {
			t.Fatalf("stop frames %v", s)
		}
		e.turnEnd(a, nil)
		e.turnEnd(b, nil)
		e.s.Stop()
		settle()
		if n := len(e.Stops()); n != 3 {
			t.Fatalf("a stop with nothing outstanding went out: %v", e.Stops())
		}
	})
}

func TestStopAfterBargeInNamesTheCutTurns(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("Talking."))
		e.s.BargeIn()
		settle()
		e.s.Stop()
		settle()
		// The barge-in's stop and the button's: a cut turn stays
		// outstanding until its turn_end, so both name it.
		s := e.Stops()
		if len(s) != 2 || !slices.Equal(s[0], []string{a}) || !slices.Equal(s[1], []string{a}) {
			t.Fatalf("stop frames after barge-in %v", s)
		}
		if r := e.log.All("push.stop"); len(r) != 2 || r[1].Attrs["turns"] != int64(1) {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestStopInterruptsPlayback(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.render("hermes-1", seg("First sentence here. Second sentence here."))
		m := e.ev.mark()
		e.s.Stop()
		settle()
		sleep(10e9)
		evs := e.ev.since(m)
		if len(of[session.SpeechStart](evs)) != 0 || len(of[session.SpeechEnd](evs)) != 0 {
			t.Fatalf("playback went on after stop: %v", kinds(evs))
		}
	})
}

func TestStopReleasesRunningState(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.send("hi")
		m := e.ev.mark()
		e.s.Stop()
		settle()
		evs := e.ev.since(m)
		c := of[session.Composer](evs)
		if len(c) != 1 || c[0].Locked {
			t.Fatalf("composer %v", kinds(evs))
		}
		// The stop cut the filler the voice was speaking: playback is idle,
		// and the face eases back to neutral.
		eq(t, "script", script(evs), []string{"cue e=neutral,m=idle", "cue e=neutral"})
	})
}

func TestStoppedTurnGetsNoFailureLineWhenItsWaitWouldPass(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.send("hi")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		sleep(push.TurnFrameWait * 2)
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("failure line for a stopped turn: %+v", f)
		}
		if n := len(e.log.All("network_stall")); n != 0 {
			t.Fatalf("network_stall for a stopped turn:\n%s", e.log.Dump())
		}
	})
}

func TestStoppedTurnRenderDroppedAndLogged(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.s.StartTurn("two", clientTrigger())
		settle()
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.render(a, seg("Late."))
		e.drain()
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("dropped render produced %v", kinds(evs))
		}
		r := e.tlog.All("push.render")
		if len(r) != 1 || r[0].Attrs["dropped"] != "cut_turn" || r[0].Attrs["stopped_count"] != int64(2) || r[0].Attrs["turn_id"] != a {
			t.Fatalf("turn log %s", e.tlog.Dump())
		}
	})
}

func TestStoppedTurnSpeechDroppedAndLogged(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.speech(a, seg("Late."))
		e.drain()
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("dropped speech produced %v", kinds(evs))
		}
		r := e.log.All("push.speech")
		if len(r) != 1 || r[0].Attrs["dropped"] != "cut_turn" || r[0].Attrs["stopped_count"] != int64(1) || r[0].Attrs["segments"] != int64(1) {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestStoppedTurnErrorDroppedAndLogged(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.errorFrame(a, "boom")
		e.turnEnd(a, nil)
		evs := e.ev.since(m)
		if len(of[session.ErrorLine](evs)) != 0 || len(of[session.FailureLine](evs)) != 0 {
			t.Fatalf("stopped turn's error shown: %v", kinds(evs))
		}
		r := e.log.All("push.error")
		if len(r) != 1 || r[0].Attrs["dropped"] != "cut_turn" || r[0].Attrs["stopped_count"] != int64(1) || r[0].Attrs["message"] != nil {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestStoppedTurnToolStatusDroppedAndLogged(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.toolStatus(a, "running", "read_file")
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("dropped tool_status produced %v", kinds(evs))
		}
		r := e.log.All("push.tool_status")
		if len(r) != 1 || r[0].Attrs["dropped"] != "cut_turn" || r[0].Attrs["state"] != nil {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestStoppedTurnReasoningDropped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.reasoning(a, "late thoughts")
		if evs := e.ev.since(m); len(evs) != 0 {
			t.Fatalf("dropped reasoning produced %v", kinds(evs))
		}
	})
}

func TestStoppedTurnForgottenOnTurnEndThenLateRenderPlays(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.s.Stop()
		settle()
		m := e.ev.mark()
		e.turnEnd(a, nil)
		if te := of[session.TurnEnd](e.ev.since(m)); len(te) != 1 {
			t.Fatalf("turn_end of stopped turn not shown: %+v", te)
		}
		// After its turn_end the turn is closed: a render naming it plays.
		e.render(a, seg("Closed now."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"Closed now."})
	})
}

func TestStoppedCountCountsStoppedTurnsStillWaiting(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		b := e.s.StartTurn("two", clientTrigger())
		settle()
		e.s.Stop()
		settle()
		e.turnEnd(a, nil)
		e.speech(b, seg("Late."))
		r := e.log.All("push.speech")
		if len(r) != 1 || r[0].Attrs["stopped_count"] != int64(1) {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}

func TestTypedTurnStopsOutstandingTurnsWithoutStopFrame(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("A long answer that keeps going and going."))
		m := e.ev.mark()
		b := e.send("two")
		if len(e.Stops()) != 0 {
			t.Fatalf("a typed turn sent stop: %v", e.Stops())
		}
		e.render(a, seg("More of the old answer."))
		e.render(b, seg("New answer."))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"New answer."})
	})
}

func TestSpokenTurnStopsSpeechToo(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.render("hermes-1", seg("A long report that keeps going."))
		m := e.ev.mark()
		id := e.s.SendSpoken("wait")
		settle()
		e.render("hermes-1", seg("Still reporting."))
		e.render(id, seg("Yes?"))
		e.drain()
		eq(t, "speech", texts(e.ev.since(m), session.KindSpeechStart), []string{"Yes?"})
	})
}

func TestToolCallOfStoppedTurnAnsweredTurnStopped(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{tools: []push.Tool{transport.ToolFunc{Name: "look"}}})
		a := e.send("one")
		e.send("two") // stops a without a stop frame
		res, _, err := e.srv.CallTool(t.Context(), e.chat, a, "look", map[string]any{"at": "body"})
		if err != nil || res != push.ResultTurnStopped {
			t.Fatalf("result %q, %v", res, err)
		}
	})
}

func TestStopRecordsInterruptedTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("First part here. Second part here."))
		sleep(1e9) // "First part here." is playing
		e.s.Stop()
		settle()
		rec := previous(t, e)
		if rec.Outcome != clientctx.Interrupted || rec.Trigger != session.LabelTyped || rec.Spoken != "First part here." || rec.Unspoken != "Second part here." {
			t.Fatalf("record %+v", rec)
		}
		e.send("next")
		tu := e.Turns()
		if !containsLine(tu[1].ClientContext, `previous: user.text_submitted interrupted (0min ago), spoken: "First part here." unspoken: "Second part here."`) {
			t.Fatalf("block:\n%s", tu[1].ClientContext)
		}
	})
}

func TestInterruptedRecordCarriesEverythingOwed(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("Alpha one."))
		e.render("hermes-1", seg("Beta two."))
		sleep(5e8)
		e.s.Stop()
		settle()
		rec := previous(t, e)
		if rec.Spoken != "Alpha one." || rec.Unspoken != "Beta two." {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestStopWhenNothingPlaysRecordsNothing(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.send("one")
		e.s.Stop()
		settle()
		if rec := previous(t, e); rec.Outcome != "" {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestStopClearsPillOfStoppedTurn(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.toolStatus(a, "running", "read_file")
		m := e.ev.mark()
		e.s.Stop()
		settle()
		p := of[session.Pill](e.ev.since(m))
		if len(p) != 1 || p[0].Tool != nil {
			t.Fatalf("pill %+v", p)
		}
	})
}

func TestStopNotSentWhileDisconnectedStillDrops(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		a := e.send("one")
		e.render(a, seg("x."))
		e.srv.Close()
		settle()
		e.s.Stop()
		settle()
		if len(e.Stops()) != 0 {
			t.Fatal("stop frame while disconnected")
		}
		if r := e.log.All("push.stop_not_sent"); len(r) != 1 {
			t.Fatalf("log %s", e.log.Dump())
		}
	})
}
