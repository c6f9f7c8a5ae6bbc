package demobackend_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/transport"
	"yui/transport/push"
)

// lookCalls records the at argument of every look call.
type lookCalls struct {
	mu  sync.Mutex
	ats []string
}

func (l *lookCalls) tool(answer func(at string) (string, []string)) push.Tool {
	return lookTool(func(at string) (string, []string) {
		l.mu.Lock()
		l.ats = append(l.ats, at)
		l.mu.Unlock()
		return answer(at)
	})
}

func (l *lookCalls) get() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.ats...)
}

func TestLookCallsClientToolAtBody(t *testing.T) {
	calls := &lookCalls{}
	tool := calls.tool(func(string) (string, []string) { return `{"posture":"sitting"}`, nil })
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turn("100", "look around")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"I'll call the client's look tool with at=body. \"",
			"   400 tool_status 100 running look",
			"   400 tool_status 100 done look",
			"   400 reasoning 100 \"The look tool answered \\\"{\\\\\\\"posture\\\\\\\":\\\\\\\"sitting\\\\\\\"}\\\" with 0 images.\"",
			"  1100 speech 100 {curious}\"I had a look around.\"",
			"  1800 speech 100 {thinking}\"Here's what I found: {\\\"posture\\\":\\\"sitting\\\"}.\"",
			"  1800 render 100 {happy}\"\" reasoning=\"I'll call the client's look tool with at=body. The look tool answered \\\"{\\\\\\\"posture\\\\\\\":\\\\\\\"sitting\\\\\\\"}\\\" with 0 images.\"",
			"  1800 turn_end 100 usage=1380/35/1415",
		)
		if got := calls.get(); len(got) != 1 || got[0] != "body" {
			e.t.Fatalf("look calls %q", got)
		}
	})
}

func TestScreenCallsLookAtScreenAndCountsImages(t *testing.T) {
	calls := &lookCalls{}
	tool := calls.tool(func(string) (string, []string) { return "ok", []string{"data:image/png;base64,iVBORw0KGgo="} })
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turn("100", "what's on my screen?")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"I'll call the client's look tool with at=screen. \"",
			"   400 tool_status 100 running look",
			"   400 tool_status 100 done look",
			"   400 reasoning 100 \"The look tool answered \\\"ok\\\" with 1 image.\"",
			"  1100 speech 100 {happy/happy}\"Thanks for the screenshot, I got 1 image.\"",
			"  1800 speech 100 {embarrassed/sheepish}\"I'm only a demo, so I can't really see it, but it looks lovely.\"",
			"  1800 render 100 {happy}\"\" reasoning=\"I'll call the client's look tool with at=screen. The look tool answered \\\"ok\\\" with 1 image.\"",
			"  1800 turn_end 100 usage=1377/46/1423",
		)
		if got := calls.get(); len(got) != 1 || got[0] != "screen" {
			e.t.Fatalf("look calls %q", got)
		}
	})
}

func TestLookPermissionDeniedIsAFailedTool(t *testing.T) {
	tool := lookTool(func(string) (string, []string) { return "error: permission denied", nil })
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turn("100", "screen")
		e.after(10 * time.Second)
		got := e.take()
		want := []string{
			"   400 tool_status 100 failed look",
			"   400 reasoning 100 \"The look tool answered \\\"error: permission denied\\\" with 0 images.\"",
			"  1100 speech 100 {embarrassed/sheepish}\"Okay, no peeking, you said no.\"",
		}
		if len(got) != 8 || !equalLines(got[2:5], want) {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

func TestLookToolTimingOutOnTheClientIsReported(t *testing.T) {
	tool := transport.ToolFunc{Name: "look", RunFunc: func(ctx context.Context, _ transport.ToolCall) (string, []string, error) {
		<-ctx.Done() // never answers: the client's 2 s wait passes
		return "", nil, ctx.Err()
	}}
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turn("100", "look")
		e.after(10 * time.Second)
		got := e.take()
		want := []string{
			"  2400 tool_status 100 failed look",
			"  2400 reasoning 100 \"The look tool answered \\\"error: timed out after 2 s\\\" with 0 images.\"",
			"  3100 speech 100 {sad}\"I tried to look, but it didn't work.\"",
			"  3800 speech 100 {thinking}\"Maybe try again in a moment.\"",
		}
		if len(got) != 8 || !equalLines(got[2:6], want) {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

func TestStopDuringLookEndsTheTurnAndSendsNothingMore(t *testing.T) {
	tool := transport.ToolFunc{Name: "look", WaitFor: 15 * time.Second, RunFunc: func(ctx context.Context, _ transport.ToolCall) (string, []string, error) {
		<-ctx.Done()
		return "", nil, ctx.Err()
	}}
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turn("100", "look")
		e.after(time.Second)
		e.stop("100")
		e.after(20 * time.Second)
		e.expect(
			"   400 reasoning 100 \"I'll call the client's look tool with at=body. \"",
			"   400 tool_status 100 running look",
			"  1000 turn_end 100",
		)
	})
}

func TestLookWithoutDeclaredToolExplains(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "look at me")
		e.after(10 * time.Second)
		e.expect(
			"   400 reasoning 100 \"They want me to look, but this client declared no look tool.\"",
			"  1100 speech 100 {sad}\"I'd love to look, but this window gave me no look tool.\"",
			"  1800 speech 100 {relaxed}\"Only the main pet window lends me its eyes.\"",
			"  1800 render 100 {relaxed}\"\" reasoning=\"They want me to look, but this client declared no look tool.\"",
			"  1800 turn_end 100 usage=1367/44/1411",
		)
	})
}

// A look answered "pending" is told in plain words: no raw error text is
// spoken, and the user learns that answering the prompt lets her look.
func TestLookPendingIsToldInPlainWords(t *testing.T) {
	tool := lookTool(func(string) (string, []string) { return "error: permission pending: asked the user", nil })
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turn("100", "screen")
		e.after(10 * time.Second)
		got := e.take()
		var speech []string
		for _, l := range got {
			if strings.Contains(l, " speech ") {
				speech = append(speech, l)
			}
		}
		want := []string{
			"  1100 speech 100 {curious}\"I've asked if I may see your screen.\"",
			"  1800 speech 100 {happy}\"Answer the little prompt, and I'll look right after.\"",
		}
		if !equalLines(speech, want) {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}

// The turn the client starts when the user allowed the prompt makes the
// demo look at the screen again at once.
func TestPermissionAllowedTriggerLooksAgain(t *testing.T) {
	for _, answer := range []string{"allowed once", "allowed always"} {
		t.Run(answer, func(t *testing.T) {
			calls := &lookCalls{}
			tool := calls.tool(func(string) (string, []string) { return "ok", []string{"data:image/png;base64,iVBORw0KGgo="} })
			run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
				e.take()
				e.turnWith("7", "", "trigger: permission screen "+answer+" (monitor 0)")
				e.after(10 * time.Second)
				got := e.take()
				if got := calls.get(); len(got) != 1 || got[0] != "screen" {
					e.t.Fatalf("look calls %q", got)
				}
				if !strings.Contains(strings.Join(got, "\n"), "Thanks for the screenshot, I got 1 image.") {
					e.t.Fatalf("transcript:\n%s", quoteLines(got))
				}
			})
		})
	}
}

// Denied, the demo takes the no kindly and does not look.
func TestPermissionDeniedTriggerIsTakenKindly(t *testing.T) {
	calls := &lookCalls{}
	tool := calls.tool(func(string) (string, []string) { return "ok", nil })
	run(t, envOpt{tools: []push.Tool{tool}}, func(e *env) {
		e.take()
		e.turnWith("7", "", "trigger: permission screen denied (monitor 0)")
		e.after(10 * time.Second)
		got := e.take()
		if len(calls.get()) != 0 {
			e.t.Fatalf("looked after a no: %q", calls.get())
		}
		joined := strings.Join(got, "\n")
		if !strings.Contains(joined, "That's okay, I won't look at your screen.") || !strings.Contains(joined, "turn_end 7") {
			e.t.Fatalf("transcript:\n%s", quoteLines(got))
		}
	})
}
