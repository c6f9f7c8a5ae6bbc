package request

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"yui/transport"
)

// Bounds of the memory's summaries (docs/memory.md).
const (
	// MaxSummaryRequests bounds the summary requests one turn makes
	// before its own (each folds in what fits of the window).
	MaxSummaryRequests = 3
	// SummaryWait is how long one summary request may take in all.
	SummaryWait = 120 * time.Second
)

// SummaryInstructions is the system part of a summary request.
const SummaryInstructions = "You keep the memory of a long conversation between the user and you, a desktop character. " +
	"Write the new memory: the previous summary merged with the messages given, short, in plain sentences, " +
	"keeping names, what the user likes and asked for, promises made and questions still open. " +
	"Answer with the summary text only."

// transcriptSender is a wire that sends the client's transcript to some
// servers only (Responses: to those refusing previous_response_id).
type transcriptSender interface {
	SendsTranscript(base string) bool
}

// mark names message i of msgs (the messages since the boundary) by its
// content and its predecessor's: what the summary's covered mark holds.
func mark(msgs []Message, i int) string {
	h := sha256.New()
	if i > 0 {
		fmt.Fprintf(h, "%s\x00%s\x00", msgs[i-1].Role, msgs[i-1].Content)
	}
	fmt.Fprintf(h, "%s\x00%s", msgs[i].Role, msgs[i].Content)
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// uncovered is where the messages after the one marked covered start in
// msgs (all since the boundary, the dropped ones first); 0 when the mark
// is not among them (a new conversation, or the summary never covered
// any). A mark among the kept ones (the window grew) leaves nothing.
func uncovered(msgs []Message, covered string) (from int) {
	if covered == "" {
		return 0
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		if mark(msgs, i) == covered {
			return i + 1
		}
	}
	return 0
}

// memoryText is what the memory adds to the turn's system part ("" none).
func (e *Engine) memoryText() string {
	if e.cfg.Memory == nil {
		return ""
	}
	return e.cfg.Memory.System()
}

// window is the turn's transcript, the messages that no longer fit folded
// into the memory's summary first (when the wire sends the transcript to
// this server and there is a memory).
func (r *run) window(p Params, reserve int) ([]Message, string) {
	e := r.e
	mem := e.memoryText()
	kept, dropped := e.conv.Window(p.ContextWindow, reserve+tokens(mem))
	if e.cfg.Memory == nil || len(dropped) == 0 {
		return kept, mem
	}
	if ts, ok := e.wire.(transcriptSender); ok && !ts.SendsTranscript(r.base) {
		return kept, mem
	}
	if !r.summarise(p, dropped, kept) {
		return kept, mem
	}
	mem2 := e.memoryText()
	if len(mem2) > len(mem) {
		kept, _ = e.conv.Window(p.ContextWindow, reserve+tokens(mem2))
	}
	return kept, mem2
}

// summarise folds the dropped messages the summary does not cover yet
// into it, in at most MaxSummaryRequests requests to the same model. It
// reports whether the summary changed. A failed request is logged and
// leaves the rest for the next turn.
func (r *run) summarise(p Params, dropped, kept []Message) bool {
	e := r.e
	all := append(slices.Clone(dropped), kept...)
	changed := false
	for range MaxSummaryRequests {
		prev, covered := e.cfg.Memory.Summary()
		from := uncovered(all, covered)
		if from >= len(dropped) {
			return changed
		}
		prompt, last := summaryPrompt(prev, dropped, from, p.ContextWindow)
		text, err := r.summaryRequest(p, prompt)
		if err != nil {
			if r.ctx.Err() == nil {
				e.log.Warn("memory_summary_failed", "turn_id", r.id, "err", err.Error())
			}
			return changed
		}
		if strings.TrimSpace(text) == "" {
			e.log.Warn("memory_summary_failed", "turn_id", r.id, "err", "empty summary")
			return changed
		}
		e.cfg.Memory.Summarised(prev, text, mark(dropped, last))
		e.log.Info("memory_summarised", "turn_id", r.id, "messages", last+1-from, "bytes", len(text))
		changed = true
		if _, now := e.cfg.Memory.Summary(); now != mark(dropped, last) {
			return changed // the user's edit won: summarise again next turn
		}
	}
	return changed
}

// summaryPrompt is the user text of a summary request: the previous
// summary and the uncovered messages from from on that fit three
// quarters of the window (at least one, cut to fit). last is the index of
// the last message included.
func summaryPrompt(prev string, msgs []Message, from, window int) (string, int) {
	room := 1 << 20 // bytes; no window: what the turn's bounds allow
	if window > 0 {
		room = max(1024, (window*3/4-tokens(SummaryInstructions)-tokens(prev)-256)*4)
	}
	var b strings.Builder
	b.WriteString("Previous summary:\n")
	if prev == "" {
		b.WriteString("(none)")
	}
	b.WriteString(prev)
	b.WriteString("\n\nMessages to fold in, oldest first:\n")
	last := from
	for i := from; i < len(msgs); i++ {
		who := "User"
		if msgs[i].Role == "assistant" {
			who = "You"
		}
		line := who + ": " + msgs[i].Content + "\n"
		if i > from && len(line) > room {
			break
		}
		if len(line) > room {
			line = cutBytes(line, room)
		}
		b.WriteString(line)
		room -= len(line)
		last = i
	}
	return b.String(), last
}

// errSummaryWait is the cause of a summary request past SummaryWait.
var errSummaryWait = errors.New("summary request passed its wait")

// summaryRequest sends one summary request (no tools, the summary
// instructions as the system part) and returns the answer's text. Nothing
// of it is spoken or shown.
func (r *run) summaryRequest(p Params, prompt string) (string, error) {
	e := r.e
	ctx, cancel := context.WithTimeoutCause(r.ctx, SummaryWait, errSummaryWait)
	defer cancel()
	x := &Exchange{Base: r.base, Turn: transport.Turn{TurnID: r.id, Text: prompt},
		Params: Params{Model: p.Model, Card: SummaryInstructions, ContextWindow: p.ContextWindow}}
	body, err := e.wire.Body(x)
	if err != nil {
		return "", fmt.Errorf("build summary request: %w", err)
	}
	rc, err := e.post(ctx, r.base, body)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	var read int64
	s := &Stream{r: r, quiet: true}
	if err := e.wire.Read(ctx, answerReader{r: rc, read: &read}, s); err != nil {
		if c := context.Cause(ctx); c != nil {
			return "", c
		}
		return "", err
	}
	if err := s.Err(); err != nil {
		return "", err
	}
	return s.text.String(), nil
}

// cutBytes keeps at most n bytes of s, whole runes.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
