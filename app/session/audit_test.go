package session_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/clientctx"
	"yui/app/playback"
	"yui/app/session"
	"yui/transport"
	"yui/transport/push"
)

// tapeVoice is a silent voice at 10 characters per second that records
// what it synthesised and which clips played to their end or were cut.
type tapeVoice struct {
	mu       sync.Mutex
	synth    []string
	finished []string
	cut      []string
}

func (v *tapeVoice) Synthesize(ctx context.Context, l playback.Line) (playback.Clip, error) {
	v.mu.Lock()
	v.synth = append(v.synth, l.Text)
	v.mu.Unlock()
	c, err := playback.Silent{CharsPerSecond: 10}.Synthesize(ctx, l)
	if err != nil {
		return nil, err
	}
	return tapeClip{v: v, text: l.Text, c: c}, nil
}

type tapeClip struct {
	v    *tapeVoice
	text string
	c    playback.Clip
}

func (c tapeClip) Play(ctx context.Context) error {
	err := c.c.Play(ctx)
	c.v.mu.Lock()
	defer c.v.mu.Unlock()
	if err != nil {
		c.v.cut = append(c.v.cut, c.text)
	} else {
		c.v.finished = append(c.v.finished, c.text)
	}
	return err
}

func (v *tapeVoice) get() (synth, finished, cut []string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return slices.Clone(v.synth), slices.Clone(v.finished), slices.Clone(v.cut)
}

func TestFillerIsSpokenThroughTheVoiceAndCutByFirstRender(t *testing.T) {
	bubble(t, func(t *testing.T) {
		v := &tapeVoice{}
		e := newEnv(t, envOpts{voice: v})
		m := e.ev.mark()
		id := e.send("hi")
		sleep(500 * time.Millisecond) // "Let me think..." plays for 1.5 s
		e.render(id, seg("Answer."))
		e.drain()
		synth, finished, cut := v.get()
		eq(t, "synthesised", synth, []string{"Let me think...", "Answer."})
		eq(t, "cut", cut, []string{"Let me think..."})
		eq(t, "finished", finished, []string{"Answer."})
		evs := e.ev.since(m)
		eq(t, "filler events", texts(evs, session.KindFiller), []string{"Let me think..."})
		// The filler keeps its own event (the view's filler bubble); only
		// reply speech gets speech_start.
		eq(t, "speech", texts(evs, session.KindSpeechStart), []string{"Answer."})
	})
}

func TestFillerCutByStopAndRecordsNoInterruption(t *testing.T) {
	bubble(t, func(t *testing.T) {
		v := &tapeVoice{}
		e := newEnv(t, envOpts{voice: v})
		e.send("hi")
		sleep(500 * time.Millisecond)
		e.s.Stop()
		settle()
		sleep(time.Minute)
		if _, finished, cut := v.get(); !slices.Equal(cut, []string{"Let me think..."}) || len(finished) != 0 {
			t.Fatalf("cut %q finished %q", cut, finished)
		}
		if rec := previous(t, e); rec.Outcome != "" {
			t.Fatalf("cutting a filler recorded %+v", rec)
		}
	})
}

func TestLaterAndToolFillersAreSpoken(t *testing.T) {
	bubble(t, func(t *testing.T) {
		v := &tapeVoice{}
		e := newEnv(t, envOpts{voice: v})
		id := e.send("hi")
		sleep(session.LaterFillerAfter)
		e.toolStatus(id, "running", "read_file")
		sleep(10 * time.Second)
		synth, _, _ := v.get()
		eq(t, "synthesised", synth, []string{"Let me think...", "Just a sec...", "Let me check on that..."})
	})
}

func TestFailureLineIsSpokenThroughTheVoice(t *testing.T) {
	bubble(t, func(t *testing.T) {
		v := &tapeVoice{}
		e := newEnv(t, envOpts{voice: v})
		m := e.ev.mark()
		e.send("hi")
		sleep(push.TurnFrameWait)
		e.drain0()
		gaveUp := session.EnglishLines().GaveUp
		eq(t, "failure_line", texts(e.ev.since(m), session.KindFailureLine), []string{gaveUp})
		_, finished, _ := v.get()
		if !slices.Contains(finished, gaveUp) {
			t.Fatalf("the voice did not speak the failure line: %q", finished)
		}
		// Speaking it does not clear the failed record.
		if rec := previous(t, e); rec.Outcome != clientctx.Failed {
			t.Fatalf("record %+v", rec)
		}
	})
}

func TestErrorFrameFailureLineIsSpoken(t *testing.T) {
	bubble(t, func(t *testing.T) {
		v := &tapeVoice{}
		e := newEnv(t, envOpts{voice: v})
		id := e.send("hi")
		e.errorFrame(id, "boom")
		e.turnEnd(id, nil)
		e.drain()
		if _, finished, _ := v.get(); !slices.Contains(finished, session.EnglishLines().Failed) {
			t.Fatalf("finished %q", finished)
		}
	})
}

func TestSocketLeavingReadyClosesBackendTurnsOpenUtterance(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.speech("hermes-1", seg("One sentence here."))
		// A silent cue while speech is owed waits for the next boundary.
		e.speech("hermes-1", seg("", push.Cue{EmotionID: "happy"}))
		e.srv.Kick(e.chat, 1011, "crash")
		settle()
		e.drain0()
		eq(t, "script", script(e.ev.since(m)), []string{"say One sentence here.", "cue e=happy", "cue e=neutral"})
	})
}

func TestCloseMidTurnIsNoNetworkFailure(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		m := e.ev.mark()
		e.send("hi")
		if err := e.s.Close(); err != nil {
			t.Fatal(err)
		}
		if f := of[session.FailureLine](e.ev.since(m)); len(f) != 0 {
			t.Fatalf("Close spoke a failure line: %+v", f)
		}
		for _, msg := range []string{"network_drop", "network_stall", "push.playback_not_sent"} {
			if n := len(e.log.All(msg)); n != 0 {
				t.Fatalf("Close logged %s:\n%s", msg, e.log.Dump())
			}
		}
		if rec := previous(t, e); rec.Outcome != "" {
			t.Fatalf("Close left a record %+v", rec)
		}
	})
}

func TestToolEventsForEveryAnsweredCallShowTheResultSent(t *testing.T) {
	bubble(t, func(t *testing.T) {
		look := transport.ToolFunc{Name: "look", ValidateFunc: func(args json.RawMessage) error {
			if strings.Contains(string(args), "moon") {
				return push.InvalidField("at")
			}
			if strings.Contains(string(args), "nowhere") {
				return push.MissingField("monitor")
			}
			return nil
		}, RunFunc: func(ctx context.Context, call transport.ToolCall) (string, []string, error) {
			if strings.Contains(string(call.Arguments), "big") {
				return strings.Repeat("z", push.MaxFrameBytes), nil, nil
			}
			if strings.Contains(string(call.Arguments), "slow") {
				<-ctx.Done()
				return "", nil, ctx.Err()
			}
			return "ok", nil, nil
		}}
		e := newEnv(t, envOpts{tools: []push.Tool{look}})
		a := e.send("one")
		wait := push.ClientToolWait("look")
		want := map[string]string{
			"nowhere": "error: missing field monitor",
			"moon":    "error: invalid field at",
			"big":     push.ResultTooLarge,
			"slow":    push.ResultTimedOut(wait),
			"body":    "ok",
			"stopped": push.ResultTurnStopped,
		}
		call := func(name, at, turn string) {
			res, _, err := e.srv.CallTool(t.Context(), e.chat, turn, name, map[string]any{"at": at})
			if err != nil {
				t.Fatal(err)
			}
			_ = res
		}
		call("look", "nowhere", a)
		call("look", "moon", a)
		call("look", "big", a)
		call("look", "slow", a)
		call("look", "body", a)
		e.send("two") // stops a without a stop frame: the client answers
		call("look", "body", a)
		settle()
		evs := e.ev.all()
		calls, results := of[session.ToolCall](evs), of[session.ToolResult](evs)
		if len(calls) != 6 || len(results) != 6 {
			t.Fatalf("%d tool_call and %d tool_result events: %v", len(calls), len(results), kinds(evs))
		}
		// The calls went out one after another, so their events are in that
		// order; the results of calls answered at once are sent by their own
		// goroutines and may be observed in either order, so each result is
		// found by its call id.
		byID := make(map[string]session.ToolResult, len(results))
		for _, r := range results {
			if _, dup := byID[r.CallID]; dup {
				t.Errorf("two tool_result events for call %s", r.CallID)
			}
			byID[r.CallID] = r
		}
		keys := []string{"nowhere", "moon", "big", "slow", "body", "stopped"}
		for i, k := range keys {
			r, ok := byID[calls[i].CallID]
			if !ok || r.Result != want[k] || calls[i].TurnID != a {
				t.Errorf("%s: call %+v result %.60q (found %v), want %q", k, calls[i].CallID, r.Result, ok, want[k])
			}
		}
		if calls[0].Name != "look" {
			t.Errorf("first call %+v", calls[0])
		}
	})
}

func TestRenderLogSaysWhetherSpeechPlayed(t *testing.T) {
	bubble(t, func(t *testing.T) {
		e := newEnv(t, envOpts{})
		e.speech("hermes-1", seg("All green."))
		e.render("hermes-1", seg("All green.")) // repeats what speech queued: nothing new plays
		e.render("hermes-2", seg("[SILENT]", push.Cue{EmotionID: "happy"}))
		e.render("hermes-3", seg("New words."))
		r := e.tlog.All("push.render")
		if len(r) != 3 {
			t.Fatalf("turn log %s", e.tlog.Dump())
		}
		for i, want := range []bool{false, false, true} {
			if r[i].Attrs["speech"] != want {
				t.Errorf("render %d: speech %v, want %v", i, r[i].Attrs["speech"], want)
			}
		}
		if r[0].Attrs["owed"] != true || r[2].Attrs["owed"] != true {
			t.Errorf("owed %v %v (speech was still playing)", r[0].Attrs["owed"], r[2].Attrs["owed"])
		}
	})
}
