package pushserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"yui/transport/push"
)

// The adapter's tool answers (rules 3 and 5).
const (
	ResultClientDisconnected = "error: client disconnected"
	ResultTurnStopped        = "error: turn stopped"
)

// ResultNoReply is rule 5's answer for a wait of d.
func ResultNoReply(d time.Duration) string {
	return fmt.Sprintf("error: no reply from the client within %d s", int(d.Round(time.Second)/time.Second))
}

type toolAnswer struct {
	result string
	images []string
}

// pendingCall is one CallTool waiting for the chat's slot or for its result.
type pendingCall struct {
	turnID string
	done   chan toolAnswer // buffered 1; answered once, under Server.mu
}

func (p *pendingCall) answer(a toolAnswer) {
	select {
	case p.done <- a:
	default:
	}
}

// CallTool is the handler of a client-declared tool (the adapter's rules):
// it waits until the chat has no call in flight (rule 2), sends tool_call,
// and waits for the tool_result for the tool's backend wait counted from
// the send (rule 1). The answer is the client's result and images, or:
// "error: client disconnected" when the chat has no socket or its socket
// closes or is replaced, "error: turn stopped" when a stop names turnID
// (rule 3; also for a turn stopped earlier), and "error: no reply from the
// client within <n> s" when the wait passes (rule 5). A call answered so is
// never sent later. err is non-nil only for the caller's own failures: ctx
// ending, arguments that are not a JSON object, a tool the client did not
// declare (ErrNotDeclared).
func (s *Server) CallTool(ctx context.Context, chatID, turnID, name string, args any) (string, []string, error) {
	raw, err := argumentsJSON(args)
	if err != nil {
		return "", nil, fmt.Errorf("pushserver: call %s: %w", name, err)
	}
	p := &pendingCall{turnID: turnID, done: make(chan toolAnswer, 1)}

	s.mu.Lock()
	ch := s.chatLocked(chatID)
	if _, stopped := ch.stopped[turnID]; stopped {
		s.mu.Unlock()
		return ResultTurnStopped, nil, nil
	}
	if ch.conn == nil {
		s.mu.Unlock()
		return ResultClientDisconnected, nil, nil
	}
	if _, ok := ch.conn.tools[name]; !ok {
		s.mu.Unlock()
		return "", nil, fmt.Errorf("pushserver: call %s on %s: %w", name, chatID, ErrNotDeclared)
	}
	ch.waiting[p] = struct{}{}
	s.mu.Unlock()

	// Rule 2: one call in flight per chat.
	select {
	case ch.slot <- struct{}{}:
	case a := <-p.done:
		return a.result, a.images, nil
	case <-ctx.Done():
		s.mu.Lock()
		delete(ch.waiting, p)
		s.mu.Unlock()
		return "", nil, fmt.Errorf("pushserver: call %s: %w", name, ctx.Err())
	}
	defer func() { <-ch.slot }()

	s.mu.Lock()
	if _, still := ch.waiting[p]; !still || ch.conn == nil {
		// Answered while waiting for the slot: never sent.
		delete(ch.waiting, p)
		s.mu.Unlock()
		select {
		case a := <-p.done:
			return a.result, a.images, nil
		default:
			return ResultClientDisconnected, nil, nil
		}
	}
	delete(ch.waiting, p)
	s.nextID++
	id := "c-" + strconv.FormatUint(s.nextID, 10)
	ch.pending[id] = p
	ch.conn.enqueue(mustEncode(push.ToolCall{ID: id, TurnID: turnID, Name: name, Arguments: raw}))
	s.mu.Unlock()

	wait := s.cfg.ToolWait(name)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case a := <-p.done:
		return a.result, a.images, nil
	case <-timer.C:
		s.mu.Lock()
		_, still := ch.pending[id]
		delete(ch.pending, id)
		s.mu.Unlock()
		if !still {
			a := <-p.done // answered just as the wait passed
			return a.result, a.images, nil
		}
		s.log.Warn("tool_call_no_reply", "chat_id", chatID, "id", id, "name", name, "wait_ms", wait.Milliseconds())
		return ResultNoReply(wait), nil, nil
	case <-ctx.Done():
		s.mu.Lock()
		delete(ch.pending, id)
		s.mu.Unlock()
		return "", nil, fmt.Errorf("pushserver: call %s: %w", name, ctx.Err())
	}
}

// toolResult resolves a pending call; an unknown id is ignored (rule 4).
func (s *Server) toolResult(chatID string, r push.ToolResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.chatLocked(chatID)
	p, ok := ch.pending[r.ID]
	if !ok {
		s.log.Info("tool_result_ignored", "chat_id", chatID, "id", r.ID)
		return
	}
	delete(ch.pending, r.ID)
	p.answer(toolAnswer{result: r.Result, images: r.Images})
}

// stopTurns answers the chat's waiting and in-flight calls of the stopped
// turns and remembers them, so later calls for them are answered at once.
func (s *Server) stopTurns(chatID string, ids []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.chatLocked(chatID)
	set := make(map[string]struct{}, len(ids))
	for _, id := range ids {
		set[id] = struct{}{}
		if len(ch.stopped) >= 1024 {
			clear(ch.stopped)
		}
		ch.stopped[id] = struct{}{}
	}
	ch.answerAllLocked(ResultTurnStopped, set)
}

func argumentsJSON(args any) (json.RawMessage, error) {
	var raw []byte
	switch a := args.(type) {
	case nil:
		return json.RawMessage(`{}`), nil
	case json.RawMessage:
		raw = a
	case []byte:
		raw = a
	default:
		b, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("arguments are not a JSON object")
	}
	return json.RawMessage(raw), nil
}
