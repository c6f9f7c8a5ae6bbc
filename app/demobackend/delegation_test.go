package demobackend_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"yui/app/demobackend"
)

func TestDelegationRunsThenReportsInBackendStartedTurn(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "Please delegate sorting my photos")
		e.after(5 * time.Second)
		e.expect(
			"   400 reasoning 100 \"This will take a while, so I'll hand it to a background worker.\"",
			"   400 delegations [d-1 running \"Please delegate sorting my photos\" started=946684800400]",
			"  1100 speech 100 {happy/happy}\"Okay, I've handed that to a background worker.\"",
			"  1800 speech 100 {relaxed/calm}\"I'll let you know when it's done.\"",
			"  1800 render 100 {relaxed}\"\" reasoning=\"This will take a while, so I'll hand it to a background worker.\"",
			"  1800 turn_end 100 usage=1373/39/1412",
		)
		e.after(15300 * time.Millisecond) // 20.3 s: still running
		e.expect()
		e.after(100 * time.Millisecond)
		e.expect(
			" 20400 delegations [d-1 done \"Please delegate sorting my photos\" started=946684800400 ended=946684820400 ok \"Counted 42 sheep; all of them are accounted for.\"]",
			" 20400 render demo-1 {happy/dance/joyfully}\"Good news: the background task is done.\" {relaxed}\"I counted 42 sheep, and all of them are accounted for.\" reasoning=\"Worker d-1 finished \\\"Please delegate sorting my photos\\\" with status ok; tell the user.\"",
			" 20400 turn_end demo-1 usage=1350/22/1372",
		)
	})
}

func TestDelegationDelayIsConfigurableAndFailReportsError(t *testing.T) {
	run(t, envOpt{cfg: demobackend.Config{DelegationDelay: 5 * time.Second}}, func(e *env) {
		e.take()
		e.turn("100", "run this in the background and let it fail")
		e.after(6 * time.Second)
		got := e.take()
		want := []string{
			"  5400 delegations [d-1 done \"run this in the background and let it fail\" started=946684800400 ended=946684805400 error \"The worker gave up on purpose: this delegation was asked to fail.\"]",
			"  5400 render demo-1 {sad/sulk}\"Bad news: the background task failed.\" {embarrassed/sheepish}\"It was set up to fail, so no harm done.\" reasoning=\"Worker d-1 finished \\\"run this in the background and let it fail\\\" with status error; tell the user.\"",
			"  5400 turn_end demo-1 usage=1350/18/1368",
		}
		if len(got) < 3 || !equalLines(got[len(got)-3:], want) {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

func TestTwoDelegationsGetTheirOwnIDsAndReports(t *testing.T) {
	run(t, envOpt{cfg: demobackend.Config{DelegationDelay: 10 * time.Second}}, func(e *env) {
		e.take()
		e.turn("100", "delegate A")
		e.after(3 * time.Second)
		e.turn("101", "delegate B")
		e.after(3 * time.Second)
		e.take()
		e.after(10 * time.Second)
		e.expect(
			" 10400 delegations [d-1 done \"delegate A\" started=946684800400 ended=946684810400 ok \"Counted 42 sheep; all of them are accounted for.\"; d-2 running \"delegate B\" started=946684803400]",
			" 10400 render demo-1 {happy/dance/joyfully}\"Good news: the background task is done.\" {relaxed}\"I counted 42 sheep, and all of them are accounted for.\" reasoning=\"Worker d-1 finished \\\"delegate A\\\" with status ok; tell the user.\"",
			" 10400 turn_end demo-1 usage=1500/22/1522",
			" 13400 delegations [d-1 done \"delegate A\" started=946684800400 ended=946684810400 ok \"Counted 42 sheep; all of them are accounted for.\"; d-2 done \"delegate B\" started=946684803400 ended=946684813400 ok \"Counted 42 sheep; all of them are accounted for.\"]",
			" 13400 render demo-2 {happy/dance/joyfully}\"Good news: the background task is done.\" {relaxed}\"I counted 42 sheep, and all of them are accounted for.\" reasoning=\"Worker d-2 finished \\\"delegate B\\\" with status ok; tell the user.\"",
			" 13400 turn_end demo-2 usage=1500/22/1522",
		)
	})
}

func TestStopDoesNotEndDelegatedWork(t *testing.T) {
	run(t, envOpt{cfg: demobackend.Config{DelegationDelay: 5 * time.Second}}, func(e *env) {
		e.take()
		e.turn("100", "delegate it")
		e.after(time.Second)
		e.stop("100")
		e.after(10 * time.Second)
		got := e.take()
		if len(got) != 6 || got[2] != "  1000 turn_end 100" || got[5] != "  5400 turn_end demo-1 usage=1350/22/1372" {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

func TestDelegationReportIsHeldWhileClientIsAway(t *testing.T) {
	run(t, envOpt{cfg: demobackend.Config{DelegationDelay: 5 * time.Second}}, func(e *env) {
		e.take()
		e.turn("100", "delegate the laundry")
		e.after(3 * time.Second)
		e.take()
		e.disconnect()
		e.after(10 * time.Second)
		e.connect()
		e.expect(
			" 13000 delegations [d-1 done \"delegate the laundry\" started=946684800400 ended=946684805400 ok \"Counted 42 sheep; all of them are accounted for.\"]",
			" 13000 render demo-1 {happy/dance/joyfully}\"Good news: the background task is done.\" {relaxed}\"I counted 42 sheep, and all of them are accounted for.\" reasoning=\"Worker d-1 finished \\\"delegate the laundry\\\" with status ok; tell the user.\"",
			" 13000 turn_end demo-1 usage=1350/22/1372",
		)
	})
}

func TestResetCancelsDelegationsAndStartsOver(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "delegate something")
		e.after(3 * time.Second)
		e.take()
		if err := e.c.SendReset(context.Background()); err != nil {
			e.t.Fatal(err)
		}
		e.after(time.Second)
		e.expect("  3000 delegations []")
		e.after(30 * time.Second) // the cancelled worker never reports
		e.expect()
		e.turn("101", "silent")
		e.after(time.Second)
		e.expect(
			" 34400 reasoning 101 \"Nothing needs saying; a quiet nod will do.\"",
			" 34400 render 101 {relaxed/calm}\"\" reasoning=\"Nothing needs saying; a quiet nod will do.\"",
			" 34400 turn_end 101 usage=1361/20/1381", // the first turn of the new conversation
		)
		e.turn("102", "delegate again")
		e.after(time.Second)
		got := e.take()
		if len(got) < 2 || got[1] != " 35400 delegations [d-2 running \"delegate again\" started=946684835400]" {
			e.t.Fatalf("the new conversation's list should hold only the new item:\n%s", quoteLines(got))
		}
	})
}

func TestResetBeforeTheHandOffStartsNoDelegation(t *testing.T) {
	run(t, envOpt{cfg: demobackend.Config{DelegationDelay: 5 * time.Second}}, func(e *env) {
		e.take()
		e.turn("100", "delegate x")
		e.after(200 * time.Millisecond)
		if err := e.c.SendReset(context.Background()); err != nil {
			e.t.Fatal(err)
		}
		e.after(30 * time.Second)
		for _, l := range e.take() {
			if strings.Contains(l, "delegations [d-") || strings.Contains(l, "demo-") {
				e.t.Fatalf("the old conversation's delegation started: %s", l)
			}
		}
	})
}
