package chatcompletions_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/internal/request"
	"yui/transport/internal/wiretest"
)

// A server that keeps a turn going by sending a little every 40 s (under
// the 45 s idle limit) ends at MaxTurnTime: the turn fails there, and not a
// second before (issue 23: 2 million tiny deltas kept one going 195 s).
func TestATurnEndsAtItsTotalTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr, r := pipeEnv(t, func(w http.ResponseWriter, req *http.Request) {
			for {
				sse(w, content("Still here. "))
				select {
				case <-req.Context().Done():
					return
				case <-time.After(40 * time.Second):
				}
			}
		})
		tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi"})
		time.Sleep(request.MaxTurnTime - time.Second)
		synctest.Wait()
		if got := r.Got(); len(got) == 0 || got[len(got)-1] != "say Still here." {
			t.Fatalf("the turn ended before MaxTurnTime: %q", got[max(0, len(got)-3):])
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		got := r.Got()
		if tail := strings.Join(got[len(got)-2:], "|"); tail != "error |end" {
			t.Fatalf("turn ends with %q, want the generic failure and its end", tail)
		}
	})
}

// A gzip body that unpacks to 1 GiB (issue 23: 3.5 MB of it kept a turn
// going 392 s) is read to MaxAnswerBytes of what it unpacks to, and the
// turn fails there.
func TestAGzipBombEndsAtTheAnswerBound(t *testing.T) {
	var logs syncBuf
	e := newEnv(t, func(_ int, w http.ResponseWriter, r *http.Request) {
		wiretest.GzipBomb(w, content("Hello. "))
	}, chatcompletions.Config{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	e.turn("1", "hi")
	e.rec.WaitEnd(t, "1")
	eqLines(t, e.rec.Got(), []string{"say Hello.", "error ", "end"})
	var bound struct {
		Reason    string `json:"reason"`
		ReadBytes int64  `json:"read_bytes"`
	}
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, request.AnswerTooLong) {
			json.Unmarshal([]byte(l), &bound)
		}
	}
	t.Logf("the turn read %d MiB of the 1 GiB body: %s", bound.ReadBytes>>20, bound.Reason)
	if bound.Reason == "" || bound.ReadBytes > request.MaxAnswerBytes+1 {
		t.Fatalf("no request_stream_bound line with at most %d bytes read: %s", request.MaxAnswerBytes, logs.String())
	}
}
