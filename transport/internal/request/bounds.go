package request

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds on what one streamed answer can make the client hold (every
// buffer a backend can fill has a bound; docs/security.md). Past a bound
// the newest or oldest part goes as each says, or the turn fails with a
// stream error — never a buffer that grows with the stream.
const (
	// MaxReasoningKept is how much of a turn's reasoning a run keeps for
	// its render: the newest bytes, as the session keeps (a longer text
	// drops its head down to reasoningKeep).
	MaxReasoningKept = 64 << 10
	reasoningKeep    = 48 << 10
	// reasoningFlushAt sends coalesced reasoning at once when this much
	// waits, whatever the time since the last send.
	reasoningFlushAt = 16 << 10
	// MaxReplyKept is how much of a turn's reply text (and of one round's
	// text) a run keeps for the conversation and the next round trip; the
	// rest is still spoken, not kept. The stored conversation keeps 32 KiB
	// of a message anyway.
	MaxReplyKept = 256 << 10
	// MaxSentenceBytes bounds an unfinished sentence: text without a
	// sentence end is spoken in pieces of at most this size (at a space
	// when there is one).
	MaxSentenceBytes = 4 << 10
	// MaxCallsPerRound bounds the function calls of one answer (cues
	// included); more fails the turn.
	MaxCallsPerRound = 128
	// MaxCallArguments bounds one call's arguments; a call over it is
	// answered ResultArgumentsTooLarge without running.
	MaxCallArguments = 64 << 10
	// MaxIDBytes bounds a call's id and name (as the push client bounds
	// its ids); a longer one fails the turn.
	MaxIDBytes = 256
	// MaxAnswerBytes bounds what one turn reads of the server's answers,
	// every round together, counted after decompression (a gzip body of
	// 3.5 MB unpacks to 1 GiB): past it the turn fails. A long real reply
	// is far below it — 32,000 tokens streamed as one event each, at
	// 250–500 bytes an event, are 8–16 MB; 100,000 tokens of reasoning
	// 25–50 MB.
	MaxAnswerBytes = 64 << 20
	// MaxTurnTime bounds one turn from its request to its end, every round
	// and tool call together: past it the turn fails. A slow local model
	// (3 tokens a second) writes 5,400 tokens in that time; the idle
	// limits end a server that stops sending long before.
	MaxTurnTime = 30 * time.Minute
)

// The stream errors of a turn past its total bounds (logged as
// request_stream_bound; the turn shows the generic text).
var (
	AnswerTooLong = fmt.Sprintf("the answers of one turn passed %d MiB", MaxAnswerBytes>>20)
	TurnTooLong   = fmt.Sprintf("the turn passed %v", MaxTurnTime)
)

// answerReader counts what a turn reads of its answers across rounds and
// fails the read past MaxAnswerBytes.
type answerReader struct {
	r    io.Reader
	read *int64
}

func (a answerReader) Read(p []byte) (int, error) {
	room := MaxAnswerBytes - *a.read
	if room < 0 {
		return 0, &StreamError{Text: AnswerTooLong}
	}
	if int64(len(p)) > room+1 {
		p = p[:room+1]
	}
	n, err := a.r.Read(p)
	*a.read += int64(n)
	if *a.read > MaxAnswerBytes {
		return n, &StreamError{Text: AnswerTooLong}
	}
	return n, err
}

// TooManyCalls is the stream error of an answer over MaxCallsPerRound.
var TooManyCalls = fmt.Sprintf("more than %d tool calls in one answer", MaxCallsPerRound)

// ResultArgumentsTooLarge answers a call whose arguments are over
// MaxCallArguments.
const ResultArgumentsTooLarge = "error: arguments too large"

// CallBuf accumulates one streamed function call within the bounds. The
// zero value is ready.
type CallBuf struct {
	id, name string
	args     strings.Builder
	argsOver bool
	over     string // an id or name over MaxIDBytes
}

// SetID sets the call id.
func (c *CallBuf) SetID(id string) {
	if len(id) > MaxIDBytes {
		c.over = fmt.Sprintf("a tool call id over %d bytes", MaxIDBytes)
		return
	}
	c.id = id
}

// ID is the call id set so far.
func (c *CallBuf) ID() string { return c.id }

// AddName appends a piece of the function name.
func (c *CallBuf) AddName(piece string) {
	if len(c.name)+len(piece) > MaxIDBytes {
		c.over = fmt.Sprintf("a tool name over %d bytes", MaxIDBytes)
		return
	}
	c.name += piece
}

// Named reports a call worth handing on: it has a name, or broke a bound
// (which fails the turn when handed on).
func (c *CallBuf) Named() bool { return c.name != "" || c.over != "" }

// Name is the function name so far.
func (c *CallBuf) Name() string { return c.name }

// AddArgs appends a piece of the arguments; past MaxCallArguments the
// arguments are dropped and the call will be refused.
func (c *CallBuf) AddArgs(piece string) {
	if c.argsOver {
		return
	}
	if c.args.Len()+len(piece) > MaxCallArguments {
		c.argsOver = true
		c.args = strings.Builder{}
		return
	}
	c.args.WriteString(piece)
}

// SetArgs replaces the arguments (a wire's final, whole arguments).
func (c *CallBuf) SetArgs(args string) {
	c.args = strings.Builder{}
	c.argsOver = false
	c.AddArgs(args)
}

// Call is the finished call: arguments "{}" when none came; a call whose
// arguments were over the bound carries Refused.
func (c *CallBuf) Call(id string) Call {
	if id == "" {
		id = c.id
	}
	over := c.over
	if len(id) > MaxIDBytes && over == "" {
		over = fmt.Sprintf("a tool call id over %d bytes", MaxIDBytes)
	}
	out := Call{ID: id, Name: c.name, Arguments: []byte("{}"), over: over}
	if c.argsOver {
		out.Refused = ResultArgumentsTooLarge
		return out
	}
	if a := strings.TrimSpace(c.args.String()); a != "" {
		out.Arguments = []byte(a)
	}
	return out
}

// keepTail returns the newest bytes of s, at most n, from a character
// boundary.
func keepTail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return s[i:]
}

// keepHead appends to b what of s fits within max bytes, cut at a
// character boundary; it reports whether anything was left out.
func keepHead(b *strings.Builder, s string, max int) bool {
	room := max - b.Len()
	if len(s) <= room {
		b.WriteString(s)
		return false
	}
	if room <= 0 {
		return true
	}
	for room > 0 && !utf8.RuneStart(s[room]) {
		room--
	}
	b.WriteString(s[:room])
	return true
}

// sentencePiece is where an unfinished sentence over MaxSentenceBytes is
// cut: after the last space within the bound, else at a character
// boundary.
func sentencePiece(s string) int {
	n := MaxSentenceBytes
	if i := strings.LastIndexAny(s[:n], " \t"); i > 0 {
		return i + 1
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}
