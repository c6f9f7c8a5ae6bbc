package clientctx

import (
	"strings"
	"testing"
	"time"
)

func TestVariants(t *testing.T) {
	now := time.Date(2026, 9, 14, 6, 4, 14, 0, time.UTC)
	block := Context{Now: now}.Block()
	if got := ResponsesInput(block, "How did the tests go?"); got != block+"\n\nHow did the tests go?" {
		t.Fatalf("responses input %q", got)
	}
	if got := ResponsesInput(block, ""); got != block {
		t.Fatalf("responses input without utterance %q", got)
	}
	want := "client_context:\n" + Header + "\ntime: 2026-09-14T06:04:14+00:00 (UTC)\nbody: standing\ntrigger: user message"
	if got := ChatCompletionsSystem(block); got != want {
		t.Fatalf("chat completions system:\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(ChatCompletionsSystem(block), "client_context>") {
		t.Fatal("tags left in chat completions message")
	}
}
