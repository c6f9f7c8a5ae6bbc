package responses

import (
	"encoding/json"
	"strings"

	"yui/transport"
	"yui/transport/internal/request"
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

// Refused: a server without previous_response_id (llama.cpp answers 400
// "… does not support 'previous_response_id'") gets the transcript as
// input items from now on; the conversation remembers it for that base
// URL, across restarts.
func (w *wire) Refused(x *request.Exchange, e *request.StatusError) bool {
	if w.conv.NoChain(x.Base) || !strings.Contains(e.Text, "previous_response_id") {
		return false
	}
	w.conv.SetNoChain(x.Base)
	return true
}

func (w *wire) Done(x *request.Exchange, spoken string, last any) {
	user := x.Turn.Text
	if user == "" {
		user = "(no message)"
	}
	w.conv.Append(x.Turn.TurnID, user, spoken)
	if id, _ := last.(string); id != "" && !w.conv.NoChain(x.Base) {
		w.conv.SetResponseID(id)
	}
}

// ---- request ----

// The input items, each with its type, as the Responses API defines them
// (and as llama-server and OpenAI refuse them without: inputrules).

// content is one part of a message: input_text or input_image (user),
// output_text (assistant).
type content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL string `json:"image_url,omitempty"`
}

// imagePart has no text member.
type imagePart struct {
	Type     string `json:"type"`
	ImageURL string `json:"image_url"`
}

type message struct {
	Type    string `json:"type"` // "message"
	Role    string `json:"role"`
	Content []any  `json:"content"`
}

type functionCall struct {
	Type      string `json:"type"` // "function_call"
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionCallOutput struct {
	Type   string `json:"type"` // "function_call_output"
	CallID string `json:"call_id"`
	Output string `json:"output"`
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
	Input              []any             `json:"input"`
	PreviousResponseID string            `json:"previous_response_id,omitempty"`
	Reasoning          map[string]string `json:"reasoning,omitempty"`
	Tools              []tool            `json:"tools,omitempty"`
	Stream             bool              `json:"stream"`
}

// userMessage is a user message item: its text, then images.
func userMessage(text string, images []string) message {
	parts := []any{content{Type: "input_text", Text: text}}
	for _, u := range images {
		parts = append(parts, imagePart{Type: "input_image", ImageURL: u})
	}
	return message{Type: "message", Role: "user", Content: parts}
}

// assistantMessage is an assistant message item (output_text).
func assistantMessage(text string) message {
	return message{Type: "message", Role: "assistant", Content: []any{content{Type: "output_text", Text: text}}}
}

// transcriptItem is one message the client holds, as an input item.
func transcriptItem(m request.Message) message {
	if m.Role == "assistant" {
		return assistantMessage(m.Content)
	}
	return userMessage(m.Content, nil)
}

func userItem(t transport.Turn) message {
	return userMessage(transport.ContextInput(t.ClientContext, t.Text), t.Images)
}

// SendsTranscript: the transcript goes only to a server refusing
// previous_response_id (a chained server holds the conversation).
func (w *wire) SendsTranscript(base string) bool { return w.conv.NoChain(base) }

func (w *wire) UserMessage(t transport.Turn) ([]byte, error) { return json.Marshal(userItem(t)) }

func (w *wire) Body(x *request.Exchange) ([]byte, error) {
	b := body{Model: x.Params.Model, Instructions: x.System(), Stream: true}
	if x.Params.ReasoningEffort != "" {
		b.Reasoning = map[string]string{"effort": x.Params.ReasoningEffort}
	}
	for _, t := range x.Tools {
		b.Tools = append(b.Tools, tool{Type: "function", Name: t.Function.Name, Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	if w.conv.NoChain(x.Base) {
		for _, m := range x.Transcript {
			b.Input = append(b.Input, transcriptItem(m))
		}
	} else {
		b.PreviousResponseID = w.conv.ResponseID()
	}
	b.Input = append(b.Input, userItem(x.Turn))
	for _, r := range x.Rounds {
		b.Input = append(b.Input, roundItems(r)...)
	}
	return json.Marshal(b)
}

// roundItems re-send a round: its text, its calls, their outputs, and the
// images the outputs carried (a user message: an output is text only).
func roundItems(r request.Round) []any {
	var items []any
	if r.Text != "" {
		items = append(items, assistantMessage(r.Text))
	}
	var imgs []string
	for _, c := range r.Calls {
		args := string(c.Arguments)
		if args == "" {
			args = "{}" // a string either way: the servers need one
		}
		items = append(items, functionCall{Type: "function_call", CallID: c.ID, Name: c.Name, Arguments: args})
	}
	for _, c := range r.Calls {
		items = append(items, functionCallOutput{Type: "function_call_output", CallID: c.ID, Output: c.Output})
		imgs = append(imgs, c.Images...)
	}
	if len(imgs) > 0 {
		items = append(items, userMessage("Images from the tool results above.", imgs))
	}
	return items
}
