package console_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"yui/transport/push"

	"github.com/coder/websocket"
)

// The chaos test's hostile push server: every frame a misbehaving backend can send.

// hostile is the scripted backend: a raw WebSocket server that reads
// hello, answers ready (or misbehaves first), and plays each turn's
// scenario.
type hostile struct {
	t    *testing.T
	http *httptest.Server
	mu   sync.Mutex
	n    int // connections so far
}

func newHostile(t *testing.T) *hostile {
	h := &hostile{t: t}
	h.http = httptest.NewServer(h)
	t.Cleanup(h.http.Close)
	return h
}

// hconn is one socket of the hostile backend.
type hconn struct {
	c       *websocket.Conn
	n       int
	results chan push.ToolResult
	ctx     context.Context
}

func (h *hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	defer c.CloseNow()
	c.SetReadLimit(-1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, raw, err := c.Read(ctx)
	if err != nil {
		return
	}
	f, err := push.DecodeOutbound(raw)
	hello, ok := f.(push.Hello)
	if err != nil || !ok || hello.Key != chaosKey {
		c.Close(4401, "unauthorized")
		return
	}
	h.mu.Lock()
	h.n++
	hc := &hconn{c: c, n: h.n, results: make(chan push.ToolResult, 1024), ctx: ctx}
	h.mu.Unlock()
	switch hc.n % 4 {
	case 1: // a frame before ready: the client logs and ignores it
		hc.send(push.Render{TurnID: "early", Segments: []push.Segment{{Speech: "Too early."}}})
		hc.send(push.Ready{ChatID: hello.ChatID})
	case 2: // ready with max_turn_bytes, sent twice
		hc.send(push.Ready{ChatID: hello.ChatID, MaxTurnBytes: 1 << 20})
		hc.send(push.Ready{ChatID: hello.ChatID})
	default:
		hc.send(push.Ready{ChatID: hello.ChatID})
	}
	for {
		_, raw, err := c.Read(ctx)
		if err != nil {
			return
		}
		f, err := push.DecodeOutbound(raw)
		if err != nil {
			continue
		}
		switch f := f.(type) {
		case push.Turn:
			go hc.play(f)
		case push.Stop:
			for _, id := range f.TurnIDs {
				hc.send(push.Render{TurnID: id, Segments: []push.Segment{{Speech: "Stopped, but here anyway."}}})
				hc.send(push.TurnEnd{TurnID: id})
			}
		case push.ToolResult:
			select {
			case hc.results <- f:
			default:
			}
		}
	}
}

func (hc *hconn) send(f push.Frame) {
	b, err := push.Encode(f)
	if err == nil {
		hc.raw(string(b))
	}
}

func (hc *hconn) raw(s string) { _ = hc.c.Write(hc.ctx, websocket.MessageText, []byte(s)) }

func (hc *hconn) render(id, speech string, cues ...push.Cue) {
	hc.send(push.Render{TurnID: id, Source: "chaos", Segments: []push.Segment{{Cues: cues, Speech: speech}}})
}

func (hc *hconn) end(id string) {
	hc.send(push.TurnEnd{TurnID: id, Usage: &push.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}})
}

// call sends a tool_call and waits for its result (false: none came).
func (hc *hconn) call(id, turnID, name, args string) bool {
	hc.raw(fmt.Sprintf(`{"type":"tool_call","id":%q,"turn_id":%q,"name":%q,"arguments":%s}`, id, turnID, name, args))
	t := time.NewTimer(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case r := <-hc.results:
			if r.ID == id {
				return true
			}
		case <-t.C:
			return false
		case <-hc.ctx.Done():
			return false
		}
	}
}

// play runs the scenario the turn's text names.
func (hc *hconn) play(tu push.Turn) {
	f := strings.Fields(tu.Text)
	if len(f) < 3 {
		hc.render(tu.TurnID, "Hm?")
		hc.end(tu.TurnID)
		return
	}
	i, _ := strconv.Atoi(f[1])
	id := tu.TurnID
	happy := push.Cue{EmotionID: "happy", MotionID: "wave"}
	switch f[2] {
	case "normal":
		hc.send(push.Speech{TurnID: id, Segments: []push.Segment{{Cues: []push.Cue{happy}, Speech: "Working on it."}}})
		hc.send(push.Speech{TurnID: id, Segments: []push.Segment{{Speech: "Working on it."}}}) // a repeat
		hc.send(push.Reasoning{TurnID: id, Delta: "Let me think. "})
		hc.send(push.ToolStatus{TurnID: id, State: "running", ToolID: "read_file"})
		hc.send(push.ToolStatus{TurnID: id, State: "done", ToolID: "read_file"})
		hc.send(push.Render{TurnID: id, Source: "chaos", Reasoning: "Let me think. Done.",
			Segments: []push.Segment{{Speech: "Working on it. All done."}, {Cues: []push.Cue{{EmotionID: "calm"}}, Speech: "[SILENT]"}}})
		hc.end(id)
	case "report":
		bg := fmt.Sprintf("bg-report-%d", i)
		hc.render(bg, "By the way, the build finished.", happy)
		hc.end(bg)
		hc.render(id, "Anything else?")
		hc.end(id)
	case "error", "spoken":
		hc.send(push.ErrorFrame{TurnID: id, Message: "Provider returned 429:\n" + strings.Repeat("rate limit ", 1000)})
		hc.end(id)
	case "oversize":
		hc.raw(`{"type":"render","turn_id":"` + id + `","segments":[{"speech":"` + strings.Repeat("x", 300<<10) + `"}]}`)
		hc.raw(`{"type":"reasoning","turn_id":"` + id + `","delta":"` + strings.Repeat("y", 257<<10) + `"}`)
		hc.render(id, "The big one was dropped.")
		hc.end(id)
	case "malformed":
		for _, s := range []string{
			`not json at all`, `[1,2,3]`, `{"type":"render"}`, `{"type":"render","turn_id":5,"segments":[]}`,
			`{"type":"mystery","turn_id":"` + id + `"}`, `{"type":"tool_status","turn_id":"` + id + `","state":"exploded","tool_id":"x"}`,
			`{"type":"tool_call","id":7,"name":"look"}`, `{"type":"delegations","items":[{"id":"","state":"x"}]}`,
			`{"type":"render","turn_id":"` + strings.Repeat("L", 300) + `","segments":[]}`,
			`{"type":"reasoning","turn_id":"` + id + `","delta":` + "\"\\ud800\"" + `}`,
			`{"type":"delegations","items":[{"id":"d-1","title":"` + strings.Repeat("t", 5000) + `","started_at":1,"state":"running"}]}`,
		} {
			hc.raw(s)
		}
		_ = hc.c.Write(hc.ctx, websocket.MessageBinary, []byte{0xff, 0x00, 0x01})
		hc.render(id, "Still here.")
		hc.send(push.TurnEnd{TurnID: id}) // a usage of the wrong shape comes next, for another turn
		hc.raw(`{"type":"turn_end","turn_id":"nobody","usage":{"total_tokens":"many"}}`)
	case "duplicate":
		hc.render(id, "Once.")
		hc.render(id, "Once.")
		hc.raw(`{"type":"tool_call","id":"dup-` + strconv.Itoa(i) + `","turn_id":"` + id + `","name":"look","arguments":{"at":"body"}}`)
		hc.raw(`{"type":"tool_call","id":"dup-` + strconv.Itoa(i) + `","turn_id":"` + id + `","name":"look","arguments":{"at":"body"}}`)
		hc.end(id)
		hc.end(id)
	case "late":
		hc.end(id)
		hc.render(id, "A late thought.")
		hc.send(push.ErrorFrame{TurnID: id, Message: "too late"})
		hc.send(push.ToolStatus{TurnID: id, State: "running", ToolID: "late_tool"})
		hc.send(push.Reasoning{TurnID: id, Delta: "after the end"})
	case "flood":
		bg := fmt.Sprintf("bg-flood-%d", i) // never ends
		speech := strings.Repeat("Flooding the queue with words. ", 60)
		for range 200 {
			hc.render(bg, speech, happy)
		}
		for range 20 {
			hc.send(push.Reasoning{TurnID: id, Delta: strings.Repeat("r", 100_000)})
		}
		for range 300 {
			hc.send(push.ToolStatus{TurnID: id, State: "running", ToolID: strings.Repeat("t", 5000)})
		}
		for k := range 50 {
			hc.send(push.Delegations{Items: []push.Delegation{{ID: fmt.Sprintf("d-%d-%d", i, k), Title: "Flood", StartedAt: 1, State: "running"}}})
		}
		hc.render(id, "Made it through the flood.")
		hc.end(id)
	case "tools":
		hc.call(fmt.Sprintf("u-%d", i), id, "nope", `{}`)
		hc.call(fmt.Sprintf("b-%d", i), id, "look", `{"at":"moon"}`)
		for k := range 30 { // one id reused back to back
			if !hc.call(fmt.Sprintf("r-%d", i), id, "look", fmt.Sprintf(`{"at":"body","n":%d}`, k)) {
				break
			}
		}
		hc.render(id, "Tools done.")
		hc.end(id)
	case "drop":
		hc.send(push.Speech{TurnID: id, Segments: []push.Segment{{Speech: "Let me start."}}})
		switch (i / len(chaosScenarios)) % 4 {
		case 0:
			hc.c.Close(websocket.StatusInternalError, "boom")
		case 1:
			hc.c.Close(4000, "custom")
		case 2:
			hc.c.Close(4409, "replaced")
		default:
			hc.c.CloseNow() // no close frame at all
		}
	case "unauthorized":
		hc.c.Close(4401, "key revoked")
	case "barge":
		// The user barges in; the cut turn's reply and end come later.
		time.Sleep(50 * time.Millisecond)
		hc.render(id, "You cut me off.")
		hc.end(id)
	case "stop", "reset":
		// Nothing until the stop frame (answered in the read loop).
	default:
		hc.render(id, "Unknown scenario.")
		hc.end(id)
	}
}
