package threads_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"yui/transport/threads/threadserver"
)

// Stopping a turn here and elsewhere.

// TestUserStop: the stop button ends the turn at once, tells the runtime,
// and nothing of the stopped run plays (its failed message, the stop
// notice); the next turn works.
func TestUserStop(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				if r.Utterance() == "again" {
					r.Say("Back again.")
					return
				}
				r.Say("Working on it. ", "Almost")
				<-r.Context().Done()
			}})
			e.send("1", "work")
			e.rec.waitLine(t, "1 say Working on it.")
			if err := e.tr.Stop(context.Background(), []string{"1"}); err != nil {
				t.Fatal(err)
			}
			e.rec.waitLine(t, "1 end")
			e.waitServer("the stop", func() bool { st := e.stats(); return st.Stops == 1 && !st.Running })
			e.send("2", "again")
			e.rec.waitLine(t, "2 end")
			eq(t, "stopped", e.rec.turn("1"), []string{"say Working on it.", "end"})
			eq(t, "next", e.rec.turn("2"), []string{"say Back again.", "render-end", "end"})
			for _, l := range e.rec.all() {
				if strings.HasPrefix(l, "sa-") {
					t.Errorf("the stopped run played as a backend turn: %q", l)
				}
			}
		})
	}
}

// TestStoppedElsewhere: a run stopped by another client of the thread (the
// runtime's own UI) ends its turn, not failed, and the stopped message's
// words are not said again: from thread_status where the runtime sends it,
// otherwise from the "Execution stopped by user" system message (no
// stopped telemetry follows a user stop). The next turn works.
func TestStoppedElsewhere(t *testing.T) {
	for name, b := range behaviours() {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{behaviour: b, agent: func(r *threadserver.Reply) {
				if r.Utterance() == "again" {
					r.Say("Back again.")
					return
				}
				r.Say("Working on it. ", "Almost")
				<-r.Context().Done()
			}})
			e.send("1", "work")
			e.rec.waitLine(t, "1 say Working on it.")
			req, err := http.NewRequest(http.MethodPost, e.hs.URL+"/api/threads/"+e.thread()+"/stop", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+testKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("stop: %s", resp.Status)
			}
			e.rec.waitLine(t, "1 end")
			// What was said stays; the stopped (failed) message's unfinished
			// words are not said; nothing fails.
			eq(t, "stopped", e.rec.turn("1"), []string{"say Working on it.", "render-end", "end"})
			if n := len(e.log.find("threads.run_failed")); n != 0 {
				t.Errorf("%d run_failed lines for a stop", n)
			}
			e.send("2", "again")
			e.rec.waitLine(t, "2 end")
			eq(t, "next", e.rec.turn("2"), []string{"say Back again.", "render-end", "end"})
		})
	}
}
