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

// Name is the wire's name in logs and errors.
const Name = "responses"

// Config is what the transport is made from (see request.Config).
type Config = request.Config

// New makes a Responses transport.
func New(cfg Config) (*request.Engine, error) {
	w := &wire{}
	e, err := request.New(Name, w, cfg)
	if err != nil {
		return nil, err
	}
	w.conv = e.Conversation()
	return e, nil
}

type wire struct{ conv *request.Conversation }

func (w *wire) Path() string { return "/responses" }
func (w *wire) Reset()       {}

// Input is the user input: the client_context block, a blank line, then
// the utterance; the block alone when the utterance is empty.
func Input(block, utterance string) string {
	switch {
	case block == "":
		return utterance
	case utterance == "":
		return block
	}
	return block + "\n\n" + utterance
}

// Refused: a server without previous_response_id (llama.cpp answers 400
// "… does not support 'previous_response_id'") gets the transcript as
// input items from now on.
func (w *wire) Refused(x *request.Exchange, e *request.StatusError) bool {
	if w.conv.NoChain() || !strings.Contains(e.Text, "previous_response_id") {
		return false
	}
	w.conv.SetNoChain()
	return true
}

func (w *wire) Done(x *request.Exchange, spoken string, last any) {
	user := x.Turn.Text
	if user == "" {
		user = "(no message)"
	}
	w.conv.Append(x.Turn.TurnID, user, spoken)
	if id, _ := last.(string); id != "" && !w.conv.NoChain() {
		w.conv.SetResponseID(id)
	}
}

// ---- request ----

type content struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
}

type item struct {
	Type    string `json:"type,omitempty"`
	Role    string `json:"role,omitempty"`
	Content any    `json:"content,omitempty"`
	// function_call and function_call_output
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Output    string `json:"output,omitempty"`
}

type tool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type body struct {
	Model              string            `json:"model,omitempty"`
	Instructions       string            `json:"instructions,omitempty"`
	Input              []item            `json:"input"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	Reasoning          map[string]string `json:"reasoning,omitempty"`
	Tools              []tool            `json:"tools,omitempty"`
	Stream             bool              `json:"stream"`
}

func userItem(t transport.Turn) item {
	parts := []content{{Type: "input_text", Text: Input(t.ClientContext, t.Text)}}
	for _, u := range t.Images {
		parts = append(parts, content{Type: "input_image", ImageURL: u})
	}
	return item{Role: "user", Content: parts}
}

func (w *wire) UserMessage(t transport.Turn) ([]byte, error) { return json.Marshal(userItem(t)) }

func (w *wire) Body(x *request.Exchange) ([]byte, error) {
	b := body{Model: x.Params.Model, Instructions: x.Params.Card, Stream: true}
	if x.Params.ReasoningEffort != "" {
		b.Reasoning = map[string]string{"effort": x.Params.ReasoningEffort}
	}
	for _, t := range x.Tools {
		b.Tools = append(b.Tools, tool{Type: "function", Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	if w.conv.NoChain() {
		for _, m := range x.Transcript {
			b.Input = append(b.Input, item{Role: m.Role, Content: m.Content})
		}
	} else {
		b.PreviousResponseID = w.conv.ResponseID()
	}
	b.Input = append(b.Input, userItem(x.Turn))
	for _, r := range x.Rounds {
		if r.Text != "" {
			b.Input = append(b.Input, item{Role: "assistant", Content: r.Text})
		}
		var imgs []string
		for _, c := range r.Calls {
			b.Input = append(b.Input, item{Type: "function_call", CallID: c.ID, Name: c.Name, Arguments: string(c.Arguments)})
		}
		for _, c := range r.Calls {
			b.Input = append(b.Input, item{Type: "function_call_output", CallID: c.ID, Output: c.Output})
			imgs = append(imgs, c.Images...)
		}
		if len(imgs) > 0 {
			parts := []content{{Type: "input_text", Text: "Images from the tool results above."}}
			for _, u := range imgs {
				parts = append(parts, content{Type: "input_image", ImageURL: u})
			}
			b.Input = append(b.Input, item{Role: "user", Content: parts})
		}
	}
	return json.Marshal(b)
}

// ---- stream ----

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
	sr := sse.NewReader(body, 0)
	calls := map[string]*call{}
	completed := false
	for {
		ev, err := sr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if completed {
					return nil
				}
				return io.ErrUnexpectedEOF
			}
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			if errors.Is(err, sse.ErrTooLong) {
				return &request.StreamError{Text: err.Error()}
			}
			return err
		}
		s.Event()
		if string(ev.Data) == "[DONE]" {
			if completed {
				return nil
			}
			return io.ErrUnexpectedEOF
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
			if it := e.Item; it != nil {
				switch {
				case it.Type == "function_call":
					if c := newCall(s, calls, it.ID, it); c != nil {
						c.buf.AddArgs(it.Arguments)
						s.Tool(c.buf.Name(), "running")
					}
				case isHostedTool(it.Type):
					s.Tool(hostedName(it.Type), "running")
				}
			}
		case "response.function_call_arguments.delta":
			if c := calls[e.ItemID]; c != nil {
				c.buf.AddArgs(e.Delta)
			}
		case "response.function_call_arguments.done":
			if c := calls[e.ItemID]; c != nil {
				c.buf.SetArgs(e.Arguments)
			}
		case "response.output_item.done":
			if it := e.Item; it != nil {
				switch {
				case it.Type == "function_call":
					c := calls[it.ID]
					if c == nil {
						if c = newCall(s, calls, it.ID, it); c == nil {
							break
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
					finishCall(s, c, it.ID)
				case isHostedTool(it.Type):
					state := "done"
					if it.Status == "failed" || it.Status == "incomplete" {
						state = "failed"
					}
					s.Tool(hostedName(it.Type), state)
				}
			}
		case "response.completed":
			completed = true
			if r := e.Response; r != nil {
				if r.ID != "" {
					s.SetState(r.ID)
				}
				if u := r.Usage; u != nil {
					s.Usage(transport.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens})
				}
			}
			// Calls whose output_item.done never came.
			for id, c := range calls {
				finishCall(s, c, id)
			}
		case "error", "response.failed", "response.incomplete":
			return &request.StreamError{Text: e.Type}
		}
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
