package responses

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"yui/transport"
	"yui/transport/internal/request"
	"yui/transport/internal/sse"
)

// The response stream: its events read into the engine's Stream.

// Event is one streamed event, the fields used.
type Event struct {
	Type        string     `json:"type"`
	Delta       string     `json:"delta"`
	ItemID      string     `json:"item_id"`
	OutputIndex int        `json:"output_index"`
	Arguments   string     `json:"arguments"`
	Item        *Item      `json:"item"`
	Response    *Response  `json:"response"`
	Message     string     `json:"message"`
	Code        any        `json:"code"`
	Error       *errorBody `json:"error"`
}

// Item is an output item.
type Item struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Status    string `json:"status"`
}

// Response is the response object of created/completed/failed events.
type Response struct {
	ID    string     `json:"id"`
	Usage *Usage     `json:"usage"`
	Error *errorBody `json:"error"`
}

// Usage is response.completed's.
type Usage struct {
	InputTokens  float64 `json:"input_tokens"`
	OutputTokens float64 `json:"output_tokens"`
	TotalTokens  float64 `json:"total_tokens"`
}

type errorBody struct {
	Message string `json:"message"`
}

type call struct {
	buf  request.CallBuf
	done bool
}

// newCall starts a function call of the stream, unless the answer already
// has MaxCallsPerRound (then the turn fails: Stream.Err).
func newCall(s *request.Stream, calls map[string]*call, itemID string, it *Item) *call {
	switch {
	case len(calls) >= request.MaxCallsPerRound:
		s.Fail(request.TooManyCalls)
		return nil
	case len(itemID) > request.MaxIDBytes:
		s.Fail(fmt.Sprintf("an output item id over %d bytes", request.MaxIDBytes))
		return nil
	}
	c := &call{}
	c.buf.SetID(it.CallID)
	c.buf.AddName(it.Name)
	calls[itemID] = c
	return c
}

func (w *wire) Read(ctx context.Context, body io.Reader, s *request.Stream) error {
	rd := &reader{s: s, sr: sse.NewReader(body, 0), calls: map[string]*call{}}
	for {
		ev, err := rd.sr.Next()
		if err != nil {
			return rd.ended(ctx, err)
		}
		s.Event()
		if string(ev.Data) == "[DONE]" {
			return rd.ended(ctx, io.EOF)
		}
		if err := s.Err(); err != nil {
			return err
		}
		var e Event
		if err := json.Unmarshal(ev.Data, &e); err != nil {
			return &request.StreamError{Text: "unreadable event"}
		}
		if e.Type == "" {
			e.Type = string(ev.Name)
		}
		if err := rd.event(&e); err != nil {
			return err
		}
	}
}

// reader is one round's stream as Read goes through it.
type reader struct {
	s         *request.Stream
	sr        *sse.Reader
	calls     map[string]*call // by output item id
	completed bool             // response.completed arrived
}

// ended is how the stream's end reads: complete after response.completed,
// cut short before it.
func (rd *reader) ended(ctx context.Context, err error) error {
	switch {
	case errors.Is(err, io.EOF):
		if rd.completed {
			return nil
		}
		return io.ErrUnexpectedEOF
	case ctx.Err() != nil:
		return context.Cause(ctx)
	case errors.Is(err, sse.ErrTooLong):
		return &request.StreamError{Text: err.Error()}
	}
	return err
}

// event applies one event; an error fails the round.
func (rd *reader) event(e *Event) error {
	s := rd.s
	switch e.Type {
	case "response.created":
		if e.Response != nil {
			s.SetState(e.Response.ID)
		}
	case "response.output_text.delta":
		s.Text(e.Delta)
	case "response.reasoning_text.delta", "response.reasoning_summary_text.delta", "response.reasoning.delta":
		s.Reasoning(e.Delta)
	case "response.output_item.added":
		rd.itemAdded(e.Item)
	case "response.function_call_arguments.delta":
		if c := rd.calls[e.ItemID]; c != nil {
			c.buf.AddArgs(e.Delta)
		}
	case "response.function_call_arguments.done":
		if c := rd.calls[e.ItemID]; c != nil {
			c.buf.SetArgs(e.Arguments)
		}
	case "response.output_item.done":
		rd.itemDone(e.Item)
	case "response.completed":
		rd.complete(e.Response)
	case "error", "response.failed", "response.incomplete":
		return &request.StreamError{Text: e.Type}
	}
	return nil
}

// itemAdded starts a function call, or shows a hosted tool running.
func (rd *reader) itemAdded(it *Item) {
	switch {
	case it == nil:
	case it.Type == "function_call":
		if c := newCall(rd.s, rd.calls, it.ID, it); c != nil {
			c.buf.AddArgs(it.Arguments)
			rd.s.Tool(c.buf.Name(), "running")
		}
	case isHostedTool(it.Type):
		rd.s.Tool(hostedName(it.Type), "running")
	}
}

// itemDone finishes a function call (one whose added event never came
// included), or shows a hosted tool's end.
func (rd *reader) itemDone(it *Item) {
	switch {
	case it == nil:
	case it.Type == "function_call":
		c := rd.calls[it.ID]
		if c == nil {
			if c = newCall(rd.s, rd.calls, it.ID, it); c == nil {
				return
			}
		}
		if it.Arguments != "" {
			c.buf.SetArgs(it.Arguments)
		}
		if c.buf.Name() == "" {
			c.buf.AddName(it.Name)
		}
		if c.buf.ID() == "" {
			c.buf.SetID(it.CallID)
		}
		finishCall(rd.s, c, it.ID)
	case isHostedTool(it.Type):
		state := "done"
		if it.Status == "failed" || it.Status == "incomplete" {
			state = "failed"
		}
		rd.s.Tool(hostedName(it.Type), state)
	}
}

// complete takes response.completed: the response id, the usage, and the
// calls whose output_item.done never came.
func (rd *reader) complete(r *Response) {
	rd.completed = true
	if r != nil {
		if r.ID != "" {
			rd.s.SetState(r.ID)
		}
		if u := r.Usage; u != nil {
			rd.s.Usage(transport.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens})
		}
	}
	for id, c := range rd.calls {
		finishCall(rd.s, c, id)
	}
}

// finishCall hands a function call to the stream once.
func finishCall(s *request.Stream, c *call, itemID string) {
	if c.done || !c.buf.Named() {
		return
	}
	c.done = true
	id := c.buf.ID()
	if id == "" {
		id = itemID
	}
	s.Tool(c.buf.Name(), "done")
	call := c.buf.Call(id)
	s.Call(call)
}

// isHostedTool reports an output item of a tool the backend runs itself
// (web_search_call, file_search_call, code_interpreter_call, mcp_call …).
func isHostedTool(typ string) bool {
	return strings.HasSuffix(typ, "_call") && typ != "function_call"
}

// hostedName is the pill's name of a hosted tool; a type over MaxIDBytes
// is shown as "tool".
func hostedName(typ string) string {
	if len(typ) > request.MaxIDBytes {
		return "tool"
	}
	return strings.TrimSuffix(typ, "_call")
}
