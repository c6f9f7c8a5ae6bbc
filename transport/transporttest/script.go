package transporttest

import (
	"context"
	"encoding/json"

	"yui/transport"
)

// The conformance script: what the backend replies to each user text.
// Every wire's factory plays it in its own wire format.
const (
	// TextHello gets two sentences with cues, a silent segment with a
	// motion cue, reasoning, a tool the backend runs and usage.
	TextHello = "hello"
	// TextLook gets a call of the client tool look {"at":"body"}, then,
	// after its result, TextSeen.
	TextLook = "look"
	// TextFail fails with ErrorText (push: an error frame; the request
	// wires: an HTTP 500 whose body says it).
	TextFail = "fail"
	// TextSlow says SlowFirst, then waits until the turn is stopped.
	TextSlow = "slow"
	// TextAgain gets AgainReply; the suite sends it after a reset.
	TextAgain = "again"
)

// The reply texts.
const (
	HelloFirst  = "Hi there."
	HelloSecond = "How are you?"
	Reasoning   = "Thinking it over."
	BackendTool = "web_search"
	TextSeen    = "I see you."
	ErrorText   = "boom"
	SlowFirst   = "First part."
	AgainReply  = "Again."
)

// The cues of TextHello: one per sentence, then a silent segment's.
var (
	CueFirst  = transport.Cue{EmotionID: "happy"}
	CueSecond = transport.Cue{EmotionID: "curious"}
	CueSilent = transport.Cue{MotionID: "dance"}
)

// HelloUsage is TextHello's usage.
var HelloUsage = transport.Usage{InputTokens: 10, OutputTokens: 5, TotalTokens: 15}

// LookArgs are the arguments of the look call.
const LookArgs = `{"at":"body"}`

// LookResult is what the suite's look tool answers.
const LookResult = "body: standing"

// LookTool is the client tool the suite declares.
func LookTool() transport.Tool {
	return transport.ToolFunc{Name: "look", Description: "Read body state",
		Parameters: json.RawMessage(`{"type":"object","properties":{"at":{"type":"string"}},"additionalProperties":false}`),
		RunFunc: func(context.Context, transport.ToolCall) (string, []string, error) {
			return LookResult, nil, nil
		}}
}
