package chatcompletions

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"yui/transport"
	"yui/transport/internal/request"
	"yui/transport/internal/sse"
)

// Name is the wire's name in logs and errors.
const Name = "chat_completions"

// Config is what the transport is made from (see request.Config).
type Config = request.Config

// Params are the preset fields a request carries.
type Params = request.Params

// Store keeps the preset's transcript.
type Store = request.Store

// StatusError is an HTTP error answer (status and the server's text).
type StatusError = request.StatusError

// ListModels is GET {base}/models with the key: the model ids the server
// lists. The key goes to base only; redirects are refused. Errors:
// *StatusError for an HTTP error answer, the network's otherwise.
func ListModels(ctx context.Context, hc *http.Client, base, key string) ([]string, error) {
	return request.ListModels(ctx, hc, base, key)
}

// New makes a Chat Completions transport.
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

func (w *wire) Path() string { return "/chat/completions" }
func (w *wire) Reset()       {}

func (w *wire) Refused(*request.Exchange, *request.StatusError) bool { return false }

// NoMessage stands for an empty utterance in the transcript.
const NoMessage = "(no message)"

func (w *wire) Done(x *request.Exchange, spoken string, _ any) {
	user := x.Turn.Text
	if user == "" {
		user = NoMessage
	}
	w.conv.Append(x.Turn.TurnID, user, spoken)
}

// ---- request ----

type message struct {
	Role       string     `json:"role"`
	Content    any        `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

type part struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type toolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function functionCall `json:"function"`
}

type functionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type body struct {
	Model           string                 `json:"model,omitempty"`
	Messages        []message              `json:"messages"`
	Stream          bool                   `json:"stream"`
	StreamOptions   map[string]bool        `json:"stream_options"`
	ReasoningEffort string                 `json:"reasoning_effort,omitempty"`
	Tools           []transport.ToolSchema `json:"tools,omitempty"`
}

// userMessage is the turn's user message: image parts, then the text. A
// turn with an empty utterance and no image (one the client started: a
// proactive turn, a reminder, a permission answer) sends NoMessage as its
// text: servers refuse a request without a user message to answer, or
// with an empty one (docs/transports.md, "Decisions"); the transcript
// keeps the same line for the next requests.
func userMessage(t transport.Turn) message {
	if len(t.Images) == 0 {
		if t.Text == "" {
			return message{Role: "user", Content: NoMessage}
		}
		return message{Role: "user", Content: t.Text}
	}
	parts := make([]part, 0, len(t.Images)+1)
	for _, u := range t.Images {
		parts = append(parts, part{Type: "image_url", ImageURL: &imageURL{URL: u}})
	}
	if t.Text != "" {
		parts = append(parts, part{Type: "text", Text: t.Text})
	}
	return message{Role: "user", Content: parts}
}

func (w *wire) UserMessage(t transport.Turn) ([]byte, error) { return json.Marshal(userMessage(t)) }

func (w *wire) Body(x *request.Exchange) ([]byte, error) {
	b := body{Model: x.Params.Model, Stream: true, StreamOptions: map[string]bool{"include_usage": true},
		ReasoningEffort: x.Params.ReasoningEffort, Tools: x.Tools}
	if sys := x.System(); sys != "" {
		b.Messages = append(b.Messages, message{Role: "system", Content: sys})
	}
	for _, m := range x.Transcript {
		b.Messages = append(b.Messages, message{Role: m.Role, Content: m.Content})
	}
	if x.Turn.ClientContext != "" {
		b.Messages = append(b.Messages, message{Role: "system", Content: transport.ContextSystem(x.Turn.ClientContext)})
	}
	b.Messages = append(b.Messages, userMessage(x.Turn))
	for _, r := range x.Rounds {
		am := message{Role: "assistant", Content: nil}
		if r.Text != "" {
			am.Content = r.Text
		}
		var imgs []string
		for _, c := range r.Calls {
			am.ToolCalls = append(am.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: functionCall{Name: c.Name, Arguments: string(c.Arguments)}})
		}
		b.Messages = append(b.Messages, am)
		for _, c := range r.Calls {
			b.Messages = append(b.Messages, message{Role: "tool", ToolCallID: c.ID, Content: c.Output})
			imgs = append(imgs, c.Images...)
		}
		if len(imgs) > 0 {
			// Tool messages carry text only: the images follow as a user
			// message.
			parts := []part{{Type: "text", Text: "Images from the tool results above."}}
			for _, u := range imgs {
				parts = append(parts, part{Type: "image_url", ImageURL: &imageURL{URL: u}})
			}
			b.Messages = append(b.Messages, message{Role: "user", Content: parts})
		}
	}
	return json.Marshal(b)
}

// ---- stream ----

// Chunk is one streamed chat.completion.chunk, the fields used.
type Chunk struct {
	Choices []Choice        `json:"choices"`
	Usage   *Usage          `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

// Choice is one choice of a chunk.
type Choice struct {
	Index        int     `json:"index"`
	Delta        Delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

// Delta is a choice's delta.
type Delta struct {
	Content          string          `json:"content"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []ToolCallDelta `json:"tool_calls"`
}

// ToolCallDelta is a piece of a tool call. Arguments is a string piece (or,
// from some servers, the whole object).
type ToolCallDelta struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"function"`
}

// Usage is the usage chunk's.
type Usage struct {
	PromptTokens     float64 `json:"prompt_tokens"`
	CompletionTokens float64 `json:"completion_tokens"`
	TotalTokens      float64 `json:"total_tokens"`
}

type pendingCall struct {
	index int
	buf   request.CallBuf
	done  bool
}

// reader is one round's stream state.
type reader struct {
	s       *request.Stream
	calls   []*pendingCall
	finish  bool
	nextIdx int
}

var done = []byte("[DONE]")

func (w *wire) Read(ctx context.Context, body io.Reader, s *request.Stream) error {
	rd := &reader{s: s}
	sr := sse.NewReader(body, 0)
	for {
		ev, err := sr.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				if rd.finish {
					rd.completeAll()
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
		if bytes.Equal(bytes.TrimSpace(ev.Data), done) {
			rd.completeAll()
			return nil
		}
		var c Chunk
		if err := json.Unmarshal(ev.Data, &c); err != nil {
			return &request.StreamError{Text: "unreadable chunk"}
		}
		if err := rd.chunk(&c); err != nil {
			return err
		}
		if err := s.Err(); err != nil {
			return err
		}
	}
}

// chunk applies one chunk.
func (rd *reader) chunk(c *Chunk) error {
	if len(c.Error) > 0 && string(c.Error) != "null" {
		return streamError(c.Error)
	}
	for i := range c.Choices {
		ch := &c.Choices[i]
		if ch.Index != 0 {
			continue
		}
		d := &ch.Delta
		if r := d.ReasoningContent + d.Reasoning; r != "" {
			rd.s.Reasoning(r)
		}
		for _, tc := range d.ToolCalls {
			rd.toolDelta(tc)
		}
		if d.Content != "" {
			rd.completeAll()
			rd.s.Text(d.Content)
		}
		if ch.FinishReason != nil && *ch.FinishReason != "" {
			rd.finish = true
			rd.completeAll()
		}
	}
	if c.Usage != nil {
		rd.s.Usage(transport.Usage{InputTokens: c.Usage.PromptTokens, OutputTokens: c.Usage.CompletionTokens, TotalTokens: c.Usage.TotalTokens})
	}
	return nil
}

// toolDelta accumulates a piece of a call; a new index completes the
// calls before it (so a cue plays at once).
func (rd *reader) toolDelta(tc ToolCallDelta) {
	idx := -1
	if tc.Index != nil {
		idx = *tc.Index
	} else if n := len(rd.calls); n > 0 && (tc.ID == "" || tc.ID == rd.calls[n-1].buf.ID()) && (tc.Function.Name == "" || rd.calls[n-1].buf.Name() == "") {
		idx = rd.calls[n-1].index
	} else {
		idx = rd.nextIdx
	}
	var pc *pendingCall
	for _, c := range rd.calls {
		if c.index == idx && !c.done {
			pc = c
		}
	}
	if pc == nil {
		for _, c := range rd.calls {
			if c.index < idx {
				rd.complete(c)
			}
		}
		if len(rd.calls) >= request.MaxCallsPerRound {
			rd.s.Fail(request.TooManyCalls)
			return
		}
		pc = &pendingCall{index: idx}
		rd.calls = append(rd.calls, pc)
		if idx >= rd.nextIdx {
			rd.nextIdx = idx + 1
		}
	}
	if tc.ID != "" {
		pc.buf.SetID(tc.ID)
	}
	if tc.Function.Name != "" {
		pc.buf.AddName(tc.Function.Name)
	}
	if a := tc.Function.Arguments; len(a) > 0 && string(a) != "null" {
		var piece string
		if json.Unmarshal(a, &piece) == nil {
			pc.buf.AddArgs(piece)
		} else {
			pc.buf.AddArgs(string(a)) // a whole object
		}
	}
}

func (rd *reader) completeAll() {
	for _, c := range rd.calls {
		rd.complete(c)
	}
}

// complete hands a finished call to the stream once.
func (rd *reader) complete(c *pendingCall) {
	if c.done || !c.buf.Named() {
		return
	}
	c.done = true
	id := c.buf.ID()
	if id == "" {
		id = fmt.Sprintf("call_%d", c.index)
	}
	rd.s.Tool(c.buf.Name(), "done")
	rd.s.Call(c.buf.Call(id))
}

// streamError reads a mid-stream error object: its message, and a status
// when it carries one (code or status, 400–599).
func streamError(raw json.RawMessage) error {
	var o struct {
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
		Status  json.RawMessage `json:"status"`
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &request.StreamError{Text: s}
	}
	_ = json.Unmarshal(raw, &o)
	st := 0
	for _, r := range []json.RawMessage{o.Status, o.Code} {
		var n int
		if json.Unmarshal(r, &n) == nil && n >= 400 && n <= 599 {
			st = n
			break
		}
	}
	return &request.StreamError{Status: st, Text: o.Message}
}
