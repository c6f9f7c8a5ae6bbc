package demobackend_test

import (
	"testing"
	"time"
)

func TestStopEndsRunningTurnPromptly(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "tell it slow")
		e.after(3500 * time.Millisecond)
		e.expect(
			"  1000 reasoning 100 \"This needs a long answer. \"",
			"  2000 reasoning 100 \"I'll take my time with it.\"",
			"  3200 speech 100 {thinking}\"Okay, this one takes a while.\"",
		)
		e.stop("100")
		e.expect("  3500 turn_end 100")
		e.after(20 * time.Second)
		e.expect() // nothing of the stopped turn follows
	})
}

func TestStopIgnoresIDsTheBackendDoesNotHold(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "silent")
		e.after(time.Second)
		e.take()
		e.turn("101", "slow")
		e.after(500 * time.Millisecond)
		e.stop("100", "999") // 100 already ended; 999 never existed
		e.after(10 * time.Second)
		got := e.take()
		if len(got) != 9 || got[8] != "  9000 turn_end 101 usage=1514/66/1580" {
			e.t.Fatalf("the unnamed turn should run to its end:\n%s", quoteLines(got))
		}
	})
}

func TestStopDuringFakeToolSendsNoDone(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "check the tool")
		e.after(time.Second)
		e.stop("100")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"To answer that I need the read_file tool. \"",
			"   400 tool_status 100 running read_file",
			"  1000 turn_end 100",
		)
	})
}

func TestNewTurnInterruptsOlderOneWhichEndsAfterIt(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "slow")
		e.after(2500 * time.Millisecond)
		e.turn("101", "silent")
		e.after(20 * time.Second)
		e.expect(
			"  1000 reasoning 100 \"This needs a long answer. \"",
			"  2000 reasoning 100 \"I'll take my time with it.\"",
			"  2900 reasoning 101 \"Nothing needs saying; a quiet nod will do.\"",
			"  2900 render 101 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"",
			"  2900 turn_end 101 usage=1511/20/1531",
			"  2900 turn_end 100",
		)
	})
}

func TestStopNamingBothTurnsOfAnInterruption(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "slow")
		e.after(time.Second)
		e.turn("101", "slow")
		e.after(time.Second)
		e.stop("100", "101")
		e.after(20 * time.Second)
		e.expect(
			"  1000 reasoning 100 \"This needs a long answer. \"",
			"  2000 reasoning 101 \"This needs a long answer. \"",
			"  2000 turn_end 100",
			"  2000 turn_end 101",
		)
	})
}

func TestStopNamingOnlyTheInterruptedTurnKeepsTheNewerOne(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "slow")
		e.after(time.Second)
		e.turn("101", "silent")
		e.stop("100")
		e.after(5 * time.Second)
		e.expect(
			"  1000 reasoning 100 \"This needs a long answer. \"",
			"  1000 turn_end 100",
			"  1400 reasoning 101 \"Nothing needs saying; a quiet nod will do.\"",
			"  1400 render 101 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"",
			"  1400 turn_end 101 usage=1511/20/1531",
		)
	})
}

func TestStoppingTheNewerTurnAlsoEndsTheOneItInterrupted(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "slow")
		e.after(time.Second)
		e.turn("101", "slow")
		e.stop("101")
		e.after(20 * time.Second)
		e.expect(
			"  1000 reasoning 100 \"This needs a long answer. \"",
			"  1000 turn_end 101",
			"  1000 turn_end 100",
		)
	})
}

func TestStubbornTurnIgnoresStop(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "be stubborn")
		e.after(2500 * time.Millisecond)
		e.stop("100")
		e.after(10 * time.Second)
		got := e.take()
		if len(got) != 9 || got[0] != "  1000 reasoning 100 \"This needs a long answer, and I won't be stopped. \"" ||
			got[8] != "  8000 turn_end 100 usage=1371/66/1437" {
			e.t.Fatalf("a stubborn turn runs to its own end:\n%s", quoteLines(got))
		}
	})
}
