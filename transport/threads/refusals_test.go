package threads_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
	"yui/transport"
	"yui/transport/threads"
	"yui/transport/threads/threadserver"
)

// A thread deleted while open or away, upgrades and keys refused.

// TestDeletedWhileOpen: a thread deleted under an open socket (close 1000
// "Thread deleted") is shown as deleted, its running turn ends as a lost
// connection, and the client does not reconnect; a reset makes a new
// thread and goes on there.
func TestDeletedWhileOpen(t *testing.T) {
	e := newEnv(t, envOpts{behaviour: threadserver.Spec(), agent: func(r *threadserver.Reply) {
		if r.Utterance() == "after" {
			r.Say("New thread here.")
			return
		}
		r.Say("Thinking. ")
		<-r.Context().Done()
	}})
	old := e.thread()
	e.send("1", "hi")
	e.rec.waitLine(t, "1 say Thinking.")
	e.srv.Delete(old)
	e.rec.waitLine(t, "state failed deleted")
	e.rec.waitLine(t, "1 end")
	eq(t, "turn", e.rec.turn("1"), []string{"say Thinking.", "wait socket rendered=true", "end"})
	if !e.rec.has("status " + threads.ProblemDeleted) {
		t.Error("no status with the deleted problem")
	}
	if err := e.tr.SendTurn(context.Background(), transport.Turn{TurnID: "2", Text: "x"}); !errors.Is(err, transport.ErrNotReady) {
		t.Errorf("send on a deleted thread: %v, want ErrNotReady", err)
	}
	if st := e.srv.Stats(old); st.Opens != 1 || st.Refused != 0 || st.Tickets != 1 {
		t.Errorf("stats %+v: the client tried the deleted thread again", st)
	}
	if err := e.tr.Reset(context.Background()); err != nil {
		t.Fatal(err)
	}
	if e.thread() == old {
		t.Fatal("the reset kept the deleted thread")
	}
	e.send("3", "after")
	e.rec.waitLine(t, "3 end")
	eq(t, "after reset", e.rec.turn("3"), []string{"say New thread here.", "render-end", "end"})
}

// TestDeletedWhileAway: the thread is deleted while the socket is away;
// the new upgrade is refused (an HTTP answer, or dropped as the dev server
// does) and one read of the thread says it is gone: no reconnect loop.
func TestDeletedWhileAway(t *testing.T) {
	for _, rf := range []threadserver.Refusal{threadserver.RefuseObject, threadserver.RefuseText, threadserver.RefuseDrop} {
		t.Run(refusalName(rf), func(t *testing.T) {
			b := threadserver.Legacy()
			b.Refusal = rf
			b.DeleteLinger = 0
			e := newEnv(t, envOpts{behaviour: b})
			id := e.thread()
			e.srv.Delete(id)
			e.rec.waitLine(t, "state failed deleted")
			st := e.srv.Stats(id)
			if st.Refused > 1 || st.Tickets > 2 {
				t.Errorf("stats %+v: the deleted thread was tried more than once", st)
			}
			switch rf {
			case threadserver.RefuseDrop:
				if len(e.log.find("threads.upgrade_dropped")) == 0 && len(e.log.find("ws_close")) == 0 {
					t.Error("no line for the dropped upgrade")
				}
			}
		})
	}
}

func refusalName(r threadserver.Refusal) string {
	return map[threadserver.Refusal]string{threadserver.RefuseObject: "object", threadserver.RefuseText: "text", threadserver.RefuseDrop: "drop"}[r]
}

// TestRefusedUpgradesBothWays: an upgrade refused with an HTTP body
// ({"error":{…}} or {"error":"text"}) and one dropped with no answer are
// both refusals: the client reads the thread (still there), retries, and
// connects when the runtime takes it again. (In a synctest bubble: the
// retry delays pass in fake time.)
func TestRefusedUpgradesBothWays(t *testing.T) {
	for _, rf := range []threadserver.Refusal{threadserver.RefuseObject, threadserver.RefuseText, threadserver.RefuseDrop} {
		t.Run(refusalName(rf), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				b := threadserver.Spec()
				b.Refusal = rf
				e := newPipeEnv(t, b, nil, nil)
				id := e.tr.Thread()
				e.srv.RefuseUpgrades(1)
				e.srv.DropStreams(id)
				after(time.Minute)
				if e.count("state ready") != 2 {
					t.Fatalf("not connected again: %q", e.rec.all())
				}
				if rf == threadserver.RefuseDrop {
					if len(e.log.find("threads.upgrade_dropped")) != 1 {
						t.Errorf("upgrade_dropped lines: %v", e.log.find("threads.upgrade_dropped"))
					}
				} else {
					l := e.log.find("threads.upgrade_refused")
					if len(l) != 1 || l[0]["status"] != float64(401) || l[0]["message"] != "Unauthorized" {
						t.Errorf("upgrade_refused lines: %v", l)
					}
					if rf == threadserver.RefuseObject && l[0]["code"] != "unauthorized" {
						t.Errorf("the object's code was not read: %v", l)
					}
				}
				if st := e.srv.Stats(id); st.Refused != 1 || st.Opens != 2 || st.Tickets != 3 || st.Reads != 2 {
					t.Errorf("stats %+v: want a new ticket for each of the 3 attempts, one read per open", st)
				}
			})
		})
	}
}

// TestKeyRefused: a key refused by the runtime (here: revoked, so the
// ticket is refused) stops the client: failed, unauthorized, no retry.
func TestKeyRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newPipeEnv(t, threadserver.Spec(), nil, nil)
		e.srv.SetKey("another-key")
		e.srv.DropStreams(e.tr.Thread())
		e.rec.waitLine(t, "state failed unauthorized")
		if n := len(e.log.find("threads.key_refused")); n != 1 {
			t.Errorf("key_refused lines: %d", n)
		}
	})
}
