package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"yui/app/permission"
)

// PromptWait is how long a tool's first call waits for the user's answer.
const PromptWait = 90 * time.Second

// promptBase starts the ids of the hub's prompts, far above the screen
// gate's, so an answer finds its prompt (IsPrompt).
const promptBase = uint64(1) << 48

// IsPrompt reports whether prompt id is an MCP tool's (Hub.Answer), not
// the screen permission's.
func IsPrompt(id uint64) bool { return id >= promptBase }

// Errors of a call the user did not allow.
var (
	ErrDenied     = errors.New("the user denied this tool")
	ErrUnanswered = errors.New("the user did not answer the prompt")
)

// asker is the hub's per-tool permission: saved answers (always, deny),
// the prompt open, its answer.
type asker struct {
	preset, backend string
	save            func(tool, mode string) error
	onPrompt        func(permission.Prompt)
	onClosed        func(id uint64)
	log             *slog.Logger

	mu     sync.Mutex
	grants map[string]string // tool → "allow" | "deny"
	next   uint64
	open   map[uint64]chan permission.Choice
}

// allow asks for tool (of server) when no answer is saved, and waits for
// the answer within PromptWait.
func (a *asker) allow(ctx context.Context, tool, server, mcpTool string) error {
	a.mu.Lock()
	switch a.grants[tool] {
	case "allow":
		a.mu.Unlock()
		return nil
	case "deny":
		a.mu.Unlock()
		return fmt.Errorf("%s: %w (change it in Settings → MCP)", tool, ErrDenied)
	}
	a.next++
	id := promptBase + a.next
	ch := make(chan permission.Choice, 1)
	a.open[id] = ch
	a.mu.Unlock()
	p := permission.Prompt{ID: id, Preset: a.preset, Backend: a.backend,
		Tool: fmt.Sprintf("%s of the MCP server %s", mcpTool, server),
		Ask:  fmt.Sprintf("%s asks to use the tool %s of the MCP server %s: allow once, always for this character, or deny?", a.backend, mcpTool, server)}
	a.log.Info("mcp.asked", "tool", tool, "prompt", id)
	if a.onPrompt != nil {
		a.onPrompt(p)
	}
	t := time.NewTimer(PromptWait)
	defer t.Stop()
	var c permission.Choice
	select {
	case c = <-ch:
	case <-t.C:
	case <-ctx.Done():
	}
	a.mu.Lock()
	_, still := a.open[id]
	delete(a.open, id)
	a.mu.Unlock()
	if still && a.onClosed != nil {
		a.onClosed(id)
	}
	switch c {
	case permission.Once:
		return nil
	case permission.Always:
		a.saveGrant(tool, "allow")
		return nil
	case permission.Deny:
		a.saveGrant(tool, "deny")
		return fmt.Errorf("%s: %w", tool, ErrDenied)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("%s: %w within %d s", tool, ErrUnanswered, int(PromptWait/time.Second))
}

func (a *asker) saveGrant(tool, mode string) {
	a.mu.Lock()
	a.grants[tool] = mode
	a.mu.Unlock()
	if a.save == nil {
		return
	}
	if err := a.save(tool, mode); err != nil {
		a.log.Warn("mcp.grant_not_saved", "tool", tool, "err", err.Error())
	}
}

// answer delivers the user's choice to open prompt id.
func (a *asker) answer(id uint64, c permission.Choice) error {
	a.mu.Lock()
	ch, ok := a.open[id]
	delete(a.open, id)
	a.mu.Unlock()
	if !ok {
		return fmt.Errorf("answer %s to prompt %d: %w", c, id, permission.ErrNoPrompt)
	}
	a.log.Info("mcp.answered", "prompt", id, "choice", c.String())
	ch <- c
	return nil
}
