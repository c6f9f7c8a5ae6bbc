package demobackend_test

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/demobackend"
)

func TestErrorFrameForClientAcceptingError(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("100", "Give me an error please")
		e.after(5 * time.Second)
		e.expect(
			"   400 reasoning 100 \"They asked for an error, so this turn fails on purpose.\"",
			"   800 error 100 \"Demo failure on request: you said \\\"error\\\".\"",
			"   800 turn_end 100 usage=1368/20/1388",
		)
	})
}

func TestErrorWithoutAcceptsRendersFailureLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := demobackend.New(demobackend.Config{Key: testKey})
		defer b.Close()
		c := dialRaw(t, b, map[string]any{"accepts": nil})
		defer c.close()
		c.send(map[string]any{"type": "turn", "turn_id": "7", "client_context": "", "text": "error"})
		time.Sleep(5 * time.Second)
		got := strings.Join(c.take(), "\n")
		want := strings.Join([]string{
			"     0 delegations []",
			"   400 reasoning 7 \"They asked for an error, so this turn fails on purpose.\"",
			"   800 render 7 {}\"Oops, something went wrong on my side: Demo failure on request: you said \\\"error\\\".\"",
			"   800 turn_end 7 usage=1364/20/1384",
		}, "\n")
		if got != want {
			t.Fatalf("got\n%s\nwant\n%s", got, want)
		}
	})
}

func TestErrorWithAcceptsListingOtherTypesRendersFailureLine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := demobackend.New(demobackend.Config{Key: testKey})
		defer b.Close()
		c := dialRaw(t, b, map[string]any{"accepts": []string{"something_else"}})
		defer c.close()
		c.send(map[string]any{"type": "turn", "turn_id": "7", "client_context": "", "text": "error"})
		time.Sleep(5 * time.Second)
		got := c.take()
		if len(got) != 4 || !strings.Contains(got[2], "render 7") || strings.Contains(strings.Join(got, "\n"), " error 7") {
			t.Fatalf("got %q", got)
		}
	})
}
