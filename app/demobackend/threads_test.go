package demobackend_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/demobackend"
	"yui/transport"
	"yui/transport/pushserver"
	"yui/transport/threads"
)

// The threads routes play the push scripts on a Standard Agents thread: a
// threads transport gets the small talk, a failed run for "error", and the
// "drop" reply finished across a reconnect.
func TestThreadsRoutePlaysTheScripts(t *testing.T) {
	// In a bubble over an in-memory network: the scripts' delays and the
	// reconnect after the drop pass in fake time.
	synctest.Test(t, threadsRoute)
}

func threadsRoute(t *testing.T) {
	b := demobackend.New(demobackend.Config{Key: "demo-k"})
	defer b.Close()
	hc := pushserver.InMemoryClient(b.Routes())
	const base = "http://demo.test"
	ctx := context.Background()

	api, _ := threads.NewAPI(hc, base, "demo-k")
	agents, err := api.Agents(ctx)
	if err != nil || len(agents) != 1 || agents[0].ID != demobackend.DemoAgent {
		t.Fatalf("agents %v %v", agents, err)
	}
	bad, _ := threads.NewAPI(hc, base, "wrong")
	if _, err := bad.Me(ctx); !threads.IsRefused(err) {
		t.Fatalf("a wrong key: %v", err)
	}

	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	var lines []string
	add := func(l string) {
		mu.Lock()
		lines = append(lines, l)
		cond.Broadcast()
		mu.Unlock()
	}
	waitFor := func(l string) {
		t.Helper()
		stop := time.AfterFunc(30*time.Second, func() { mu.Lock(); cond.Broadcast(); mu.Unlock() })
		defer stop.Stop()
		start := time.Now()
		mu.Lock()
		defer mu.Unlock()
		for !slices.Contains(lines, l) {
			if time.Since(start) > 30*time.Second {
				t.Fatalf("waited for %q; have %q", l, lines)
			}
			cond.Wait()
		}
	}
	tr, err := threads.New(threads.Config{Endpoint: func() string { return base }, Key: func() string { return "demo-k" },
		Agent: func() string { return demobackend.DemoAgent }, HTTPClient: hc})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	ready := 0
	tr.Start(transport.HandlerFuncs{
		State: func(c transport.StateChange) {
			if c.To == transport.StateReady {
				ready++
				add("ready" + string(rune('0'+ready)))
			}
		},
		Event: func(e transport.Event) {
			switch e := e.(type) {
			case transport.Speech:
				for _, s := range e.Segments {
					add(e.TurnID + " say " + s.Speech)
				}
			case transport.TurnError:
				add(e.TurnID + " error")
			case transport.TurnEnd:
				add(e.TurnID + " end")
			}
		},
	})
	waitFor("ready1")
	send := func(id, text string) {
		t.Helper()
		if err := tr.SendTurn(ctx, transport.Turn{TurnID: id, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	send("1", "hello")
	waitFor("1 end")
	send("2", "error please")
	waitFor("2 end")
	send("3", "drop it")
	waitFor("3 end")
	waitFor("ready2")
	mu.Lock()
	defer mu.Unlock()
	var one, three []string
	for _, l := range lines {
		if s, ok := strings.CutPrefix(l, "1 say "); ok {
			one = append(one, s)
		}
		if s, ok := strings.CutPrefix(l, "3 say "); ok {
			three = append(three, s)
		}
	}
	if len(one) == 0 {
		t.Error("the greeting said nothing")
	}
	if !slices.Contains(lines, "2 error") {
		t.Errorf("no failed run for error: %q", lines)
	}
	want := []string{"I'll say this in two parts.", "The first part is here, and the second part came after the reconnect.", "Nothing was lost."}
	if strings.Join(three, "|") != strings.Join(want, "|") {
		t.Errorf("drop reply %q, want %q", three, want)
	}
}
