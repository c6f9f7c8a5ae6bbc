package threads

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"yui/transport"
)

// mrec drives a model directly and records its events as lines.
type mrec struct {
	m     *model
	lines []string
}

func newMrec() *mrec {
	r := &mrec{}
	r.m = newModel(slog.New(slog.DiscardHandler), func(e transport.Event) {
		switch e := e.(type) {
		case transport.Speech:
			for _, s := range e.Segments {
				r.lines = append(r.lines, e.TurnID+" say "+s.Speech)
			}
		case transport.Render:
			for _, s := range e.Segments {
				r.lines = append(r.lines, e.TurnID+" render "+s.Speech)
			}
			r.lines = append(r.lines, e.TurnID+" render-end")
		case transport.Reasoning:
			r.lines = append(r.lines, e.TurnID+" reasoning "+e.Delta)
		case transport.ToolStatus:
			r.lines = append(r.lines, e.TurnID+" tool "+e.ToolID+" "+e.State)
		case transport.TurnError:
			r.lines = append(r.lines, e.TurnID+" error")
		case transport.TurnEnd:
			r.lines = append(r.lines, e.TurnID+" end")
		}
	}, func(string) {})
	return r
}

// in applies frames written as JSON.
func (r *mrec) in(t *testing.T, frames ...string) {
	t.Helper()
	for _, s := range frames {
		f, err := decodeFrame([]byte(s))
		if err != nil {
			t.Fatalf("decode %s: %v", s, err)
		}
		r.m.frame(f)
	}
}

func md(id string, data string) string {
	return fmt.Sprintf(`{"type":"message_data","message_id":%q,"depth":0,"data":%s}`, id, data)
}

func chunk(id, text string) string {
	b, _ := json.Marshal(text)
	return fmt.Sprintf(`{"type":"message_chunk","message_id":%q,"depth":0,"chunk":%s}`, id, b)
}

func (r *mrec) eq(t *testing.T, want ...string) {
	t.Helper()
	if strings.Join(r.lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got  %q\nwant %q", r.lines, want)
	}
}

// TestPartialRecordsMerge: a member a frame lacks is unknown, not null: a
// frame without status does not settle a pending message, and a terminal
// frame without content uses the content an earlier frame gave.
func TestPartialRecordsMerge(t *testing.T) {
	r := newMrec()
	r.m.posted("1", "u1", false)
	r.in(t,
		md("u1", `{"id":"u1","role":"user","content":"hi","status":"pending","metadata":{"queued":true}}`),
		md("u1", `{"id":"u1","role":"user","content":"hi","created_at":1}`), // persisted: the run is the turn's
		md("a1", `{"id":"a1","role":"assistant","content":null,"status":"pending"}`),
		md("a1", `{"id":"a1","content":"Hello. Nice to"}`), // no status: still pending
		md("a1", `{"id":"a1","status":"completed"}`),       // no content: the one known
		`{"type":"stopped","reason":"Returns content (no tool calls)","side":"a","timestamp":1}`,
	)
	r.eq(t, "1 say Hello.", "1 say Nice to", "1 render-end", "1 end")
	rec := r.m.recs.byID["a1"]
	if s, _ := rec.str("status"); s != "completed" {
		t.Errorf("merged status %q", s)
	}
	if !rec.has("content") || rec.has("tool_calls") {
		t.Errorf("merged members %v", rec.fields)
	}
}

// TestNotSpoken: depth > 0 messages, silent messages, reasoning of depth
// > 0, and the failed message's text are not spoken.
func TestNotSpoken(t *testing.T) {
	r := newMrec()
	r.m.posted("1", "u1", false)
	r.in(t,
		md("u1", `{"id":"u1","role":"user","content":"hi","status":"completed"}`),
		`{"type":"message_chunk","message_id":"s1","depth":1,"chunk":"Sub prompt words. "}`,
		`{"type":"message_data","message_id":"s1","depth":1,"data":{"id":"s1","role":"assistant","content":"Sub prompt words.","status":"completed","depth":1}}`,
		`{"type":"reasoning_chunk","message_id":"s1","depth":1,"chunk":"deep thoughts"}`,
		md("q1", `{"id":"q1","role":"assistant","content":"Quiet words.","status":"completed","silent":true}`),
		chunk("a1", "Oh no, "),
		md("a1", `{"id":"a1","role":"assistant","content":"Error: upstream","status":"failed"}`),
		`{"type":"thread_status","status":"failed","reason":"step_error"}`,
	)
	r.eq(t, "1 error", "1 end")
}

// TestHistoryNotReplayed: the first catch-up read of a thread is history:
// nothing is spoken; a later read speaks what settled while away.
func TestHistoryNotReplayed(t *testing.T) {
	r := newMrec()
	r.m.catchUp([]json.RawMessage{
		json.RawMessage(`{"id":"u0","role":"user","content":"old","status":"completed"}`),
		json.RawMessage(`{"id":"a0","role":"assistant","content":"Old reply.","status":"completed"}`),
	})
	r.eq(t)
	r.m.posted("1", "u1", false)
	r.in(t,
		md("u1", `{"id":"u1","role":"user","content":"hi"}`),
		md("a1", `{"id":"a1","role":"assistant","content":null,"status":"pending"}`),
		chunk("a1", "First. Sec"),
	)
	// The socket drops; the run finished meanwhile.
	r.m.catchUp([]json.RawMessage{
		json.RawMessage(`{"id":"a0","role":"assistant","content":"Old reply.","status":"completed"}`),
		json.RawMessage(`{"id":"u1","role":"user","content":"hi","status":"completed"}`),
		json.RawMessage(`{"id":"a1","role":"assistant","content":"First. Second. Third.","status":"completed"}`),
	})
	r.eq(t, "1 say First.", "1 say Second.", "1 say Third.", "1 render-end", "1 end")
}

// TestCatchUpRunGoesOn: without thread_status, a read whose last record
// is a tool result (or an assistant message asking for tools) means the
// run goes on: the turn is not ended.
func TestCatchUpRunGoesOn(t *testing.T) {
	r := newMrec()
	r.m.catchUp(nil)
	r.m.posted("1", "u1", false)
	r.in(t, md("u1", `{"id":"u1","role":"user","content":"hi"}`), `{"type":"step_started","step":0}`)
	r.m.catchUp([]json.RawMessage{
		json.RawMessage(`{"id":"u1","role":"user","content":"hi","status":"completed"}`),
		json.RawMessage(`{"id":"a1","role":"assistant","content":"","tool_calls":"[{\"id\":\"c\"}]","status":"completed"}`),
		json.RawMessage(`{"id":"t1","role":"tool","content":"ok","status":"completed"}`),
	})
	r.eq(t)
	r.m.catchUp([]json.RawMessage{
		json.RawMessage(`{"id":"a2","role":"assistant","content":"Done.","status":"completed"}`),
	})
	r.eq(t, "1 say Done.", "1 render-end", "1 end")
}

// TestForeignMessageIsBackendTurn: a user message another client posted
// starts a backend turn; the client's own queued turn runs after it.
func TestForeignMessageIsBackendTurn(t *testing.T) {
	r := newMrec()
	r.m.posted("7", "mine", false)
	r.in(t,
		md("theirs", `{"id":"theirs","role":"user","content":"from the web","status":"completed"}`),
		chunk("a1", "Hello web. "),
		md("a1", `{"id":"a1","role":"assistant","content":"Hello web.","status":"completed"}`),
		md("mine", `{"id":"mine","role":"user","content":"hi","status":"completed"}`),
		chunk("a2", "Hello Yui."),
		`{"type":"thread_status","status":"idle","reason":"stop_on_response"}`,
	)
	r.eq(t, "sa-1 say Hello web.", "sa-1 render-end", "sa-1 end", "7 render Hello Yui.", "7 render-end", "7 end")
}

func TestCutSentences(t *testing.T) {
	for _, c := range []struct {
		in    string
		final bool
		done  []string
		rest  string
	}{
		{"Hi. How are", false, []string{"Hi."}, " How are"},
		{"Pi is 3.14 today", false, nil, "Pi is 3.14 today"},
		{"Wait... what?! Yes", false, []string{"Wait...", "what?!"}, " Yes"},
		{"こんにちは。元気？はい", false, []string{"こんにちは。", "元気？"}, "はい"},
		{"line one\nline two", false, []string{"line one"}, "line two"},
		{"He said \"go.\" Then", false, []string{"He said \"go.\""}, " Then"},
		{"End here.", false, nil, "End here."},
		{"End here.", true, []string{"End here."}, ""},
	} {
		done, rest := cutSentences(c.in, c.final)
		if strings.Join(done, "|") != strings.Join(c.done, "|") || rest != c.rest {
			t.Errorf("cutSentences(%q, %v) = %q, %q; want %q, %q", c.in, c.final, done, rest, c.done, c.rest)
		}
	}
}

func TestUnspoken(t *testing.T) {
	for _, c := range []struct {
		content string
		spoken  []string
		want    []string
	}{
		{"A. B. C.", []string{"A."}, []string{"B.", "C."}},
		{"A. B. C.", nil, []string{"A.", "B.", "C."}},
		{"Intro. A. B.", []string{"A."}, []string{"Intro.", "B."}},
		{"A.  B.", []string{"A.", "B."}, nil},
	} {
		keys := make([]sentenceKey, len(c.spoken))
		for i, s := range c.spoken {
			keys[i] = keyOf(s)
		}
		if got := unspoken(c.content, keys); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("unspoken(%q, %q) = %q, want %q", c.content, c.spoken, got, c.want)
		}
	}
}

// TestFrameDecoding reads the members both generations use.
func TestFrameDecoding(t *testing.T) {
	for _, c := range []struct {
		in   string
		want frame
	}{
		{`{"type":"thread_status","status":"failed","reason":"execution_lost","since":5}`, frame{Type: TypeThreadStatus, State: "failed", Reason: "execution_lost"}},
		{`{"type":"thread_status","state":"idle","reason":null}`, frame{Type: TypeThreadStatus, State: "idle"}},
		{`{"type":"event","eventType":"x","data":null,"timestamp":1}`, frame{Type: TypeEvent, EventName: "x"}},
		{`{"type":"event","eventType":"x","timestamp":1}`, frame{Type: TypeEvent, EventName: "x"}},
		{`{"type":"event","eventType":"x","data":{"a":1}}`, frame{Type: TypeEvent, EventName: "x", EventSize: 7}},
		{`{"type":"tool_completed","tool":"t","status":"error"}`, frame{Type: TypeToolCompleted, Tool: "t", Status: "error"}},
	} {
		got, err := decodeFrame([]byte(c.in))
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("decodeFrame(%s) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, s := range []string{"stream_pong", "pong", " pong\n"} {
		if _, err := decodeFrame([]byte(s)); err != errNotFrame {
			t.Errorf("%q: %v, want errNotFrame", s, err)
		}
	}
}

func TestFailedReason(t *testing.T) {
	for reason, want := range map[string]bool{
		"Error: 502 Bad Gateway": true, "Repeated tool error": true, "sessionFail tool called: x": true,
		"execution_lost": true, "step_error": true, "Returns content (no tool calls)": false,
		"Maximum steps reached": false, "stop_on_response": false, "aborted_by_user": false, "Stop tool called: done": false,
	} {
		if got := failedReason(reason); got != want {
			t.Errorf("failedReason(%q) = %v", reason, got)
		}
	}
}

// TestRunsInOrder: a posted turn whose run starts ends the turns posted
// before it whose runs were never seen (the runtime runs messages in
// order), so none waits forever.
func TestRunsInOrder(t *testing.T) {
	r := newMrec()
	r.m.posted("1", "u1", false)
	r.m.posted("2", "u2", false)
	r.in(t,
		md("u2", `{"id":"u2","role":"user","content":"second"}`),
		chunk("a2", "Second."),
		`{"type":"stopped","reason":"Returns content (no tool calls)"}`,
	)
	r.eq(t, "1 end", "2 render Second.", "2 render-end", "2 end")
}
