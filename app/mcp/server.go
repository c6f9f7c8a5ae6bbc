package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"yui/app/settings"
	"yui/app/version"
	"yui/transport/dataurl"
)

// Bounds of a server and its calls.
const (
	// ConnectWait bounds starting a server and listing its tools.
	ConnectWait = 15 * time.Second
	// CallWait bounds one tool call's answer.
	CallWait = 30 * time.Second
	// MaxResultBytes bounds a call's result (text and images together).
	MaxResultBytes = 64 << 10
	// MaxMessageBytes bounds one message a server sends.
	MaxMessageBytes = 1 << 20
	// MaxTools bounds the tools one server offers (the rest are left out).
	MaxTools = 64
	// maxDescription bounds a tool's description as declared.
	maxDescription = 1024
	// BackoffMin and BackoffMax bound the wait before a failed server is
	// started again (doubling from the first to the second).
	BackoffMin = time.Second
	BackoffMax = time.Minute
	// stopWait is how long a stdio server has to exit once its input is
	// closed, before it is killed.
	stopWait = 2 * time.Second
)

// server is one MCP server of a character: its session while up, its
// tools as last listed, and when it may be started again.
type server struct {
	cfg settings.MCPServer
	hc  *http.Client
	log *slog.Logger
	now func() time.Time
	// callWait is CallWait unless the hub's config shortened it.
	callWait time.Duration
	onTools  func(server string)
	// stop is cancelled by close: a start under way gives up at once.
	stop    context.Context
	stopNow context.CancelFunc

	// toolsMu guards tools alone: a turn reads them while mu is held
	// through a start (up to ConnectWait).
	toolsMu sync.Mutex
	tools   []*sdk.Tool

	mu      sync.Mutex
	sess    *sdk.ClientSession
	cmd     *exec.Cmd
	fails   int
	retryAt time.Time
	lastErr error
	closed  bool
	retry   *time.Timer // starts the server again once its back-off passed
}

// errDown is a call to a server that is waiting out its back-off.
var errDown = errors.New("is down")

// session returns the server's session, starting it when it is down and
// its back-off has passed.
func (s *server) session(ctx context.Context) (*sdk.ClientSession, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, fmt.Errorf("MCP server %s is stopped", s.cfg.Name)
	}
	if s.sess != nil {
		return s.sess, nil
	}
	if now := s.now(); now.Before(s.retryAt) {
		return nil, fmt.Errorf("MCP server %s %w (restarting in %d s): %v", s.cfg.Name, errDown, int(s.retryAt.Sub(now).Round(time.Second)/time.Second), s.lastErr)
	}
	if err := s.connectLocked(ctx); err != nil {
		s.failLocked(err)
		return nil, fmt.Errorf("MCP server %s could not start: %w", s.cfg.Name, err)
	}
	return s.sess, nil
}

// connectLocked starts the server and lists its tools, within ConnectWait.
func (s *server) connectLocked(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, ConnectWait)
	defer cancel()
	if s.stop != nil {
		defer context.AfterFunc(s.stop, cancel)()
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "yui", Version: version.String()}, nil)
	var (
		tr  sdk.Transport
		cmd *exec.Cmd
	)
	if s.cfg.Command != "" {
		cmd = exec.Command(s.cfg.Command, s.cfg.Args...)
		cmd.Env = cleanEnv()
		stopWithParent(cmd)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if err := cmd.Start(); err != nil {
			return err
		}
		tr = &sdk.IOTransport{Reader: stdout, Writer: stdin, MaxLineLength: MaxMessageBytes}
	} else {
		tr = &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: s.hc, MaxRetries: -1,
			DisableStandaloneSSE: true, MaxEventSize: MaxMessageBytes}
	}
	sess, err := client.Connect(ctx, tr, nil)
	if err != nil {
		stopCmd(cmd)
		return err
	}
	list, err := sess.ListTools(ctx, nil)
	if err != nil {
		sess.Close()
		stopCmd(cmd)
		return fmt.Errorf("list tools: %w", err)
	}
	tools := list.Tools
	if len(tools) > MaxTools {
		s.log.Warn("mcp.tools_cut", "server", s.cfg.Name, "tools", len(tools), "kept", MaxTools)
		tools = tools[:MaxTools]
	}
	s.sess, s.cmd, s.fails = sess, cmd, 0
	s.toolsMu.Lock()
	s.tools = tools
	s.toolsMu.Unlock()
	s.log.Info("mcp.started", "server", s.cfg.Name, "tools", len(tools))
	go s.watch(sess)
	if s.onTools != nil {
		go s.onTools(s.cfg.Name) // not under the lock
	}
	return nil
}

// watch notices a session that ended (a crash, a closed connection): the
// next call starts the server again.
func (s *server) watch(sess *sdk.ClientSession) {
	err := sess.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != sess || s.closed {
		return
	}
	if err == nil {
		err = errors.New("the connection closed")
	}
	s.log.Warn("mcp.ended", "server", s.cfg.Name, "err", err.Error())
	s.dropLocked()
	s.failLocked(fmt.Errorf("it stopped: %w", err))
}

// failLocked notes a failure: the back-off doubles.
func (s *server) failLocked(err error) {
	s.fails++
	d := BackoffMin << min(s.fails-1, 16)
	d = min(d, BackoffMax)
	s.retryAt = s.now().Add(d)
	s.lastErr = err
	s.log.Warn("mcp.failed", "server", s.cfg.Name, "err", err.Error(), "retry_in_ms", d.Milliseconds())
	if s.retry != nil {
		s.retry.Stop()
	}
	// Restarted in the background once the back-off passed (or by the
	// next call after it): its tools are listed afresh.
	s.retry = time.AfterFunc(d, func() { _, _ = s.session(context.Background()) })
}

// dropLocked ends the session (a stdio server's input closes) and the
// process; the channel closes once the process is gone.
func (s *server) dropLocked() <-chan struct{} {
	if s.sess != nil {
		s.sess.Close()
		s.sess = nil
	}
	gone := stopCmd(s.cmd)
	s.cmd = nil
	return gone
}

// restart drops the session after a call that hung or broke the bounds;
// the back-off decides when it starts again.
func (s *server) restart(sess *sdk.ClientSession, why error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess != sess {
		return
	}
	s.dropLocked()
	s.failLocked(why)
}

// close stops the server for good and returns once its process is gone
// (at most stopWait and a kill).
func (s *server) close() {
	if s.stopNow != nil {
		s.stopNow()
	}
	s.mu.Lock()
	s.closed = true
	if s.retry != nil {
		s.retry.Stop()
	}
	gone := s.dropLocked()
	s.mu.Unlock()
	<-gone // within stopWait: killed then
}

// listed is the server's tools as last listed (kept while it restarts).
func (s *server) listed() []*sdk.Tool {
	s.toolsMu.Lock()
	defer s.toolsMu.Unlock()
	return s.tools
}

// stopCmd kills a stdio server that has not exited within stopWait of
// its input closing; the channel closes once it is gone.
func stopCmd(cmd *exec.Cmd) <-chan struct{} {
	gone := make(chan struct{})
	if cmd == nil || cmd.Process == nil {
		close(gone)
		return gone
	}
	go func() { _ = cmd.Wait(); close(gone) }()
	go func() {
		select {
		case <-gone:
		case <-time.After(stopWait):
			_ = cmd.Process.Kill()
		}
	}()
	return gone
}

// call runs tool with args on the server within CallWait and returns the
// result's text and images (data URLs), bounded.
func (s *server) call(ctx context.Context, tool string, args json.RawMessage) (string, []string, error) {
	sess, err := s.session(ctx)
	if err != nil {
		return "", nil, err
	}
	var a map[string]any
	if err := json.Unmarshal(args, &a); err != nil {
		return "", nil, fmt.Errorf("arguments are not a JSON object: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, s.callWait)
	defer cancel()
	res, err := sess.CallTool(cctx, &sdk.CallToolParams{Name: tool, Arguments: a})
	switch {
	case err != nil && ctx.Err() != nil:
		return "", nil, ctx.Err() // the turn stopped: not the server's fault
	case err != nil && cctx.Err() != nil:
		why := fmt.Errorf("MCP server %s did not answer %s within %v; it is being restarted", s.cfg.Name, tool, s.callWait)
		s.restart(sess, why)
		return "", nil, why
	case err != nil:
		why := fmt.Errorf("MCP server %s failed on %s (it is being restarted): %w", s.cfg.Name, tool, err)
		s.restart(sess, why)
		return "", nil, why
	}
	return s.result(sess, tool, res)
}

// result is a call's answer as a tool result: its text parts, its images
// as data URLs, within MaxResultBytes.
func (s *server) result(sess *sdk.ClientSession, tool string, res *sdk.CallToolResult) (string, []string, error) {
	var (
		b    strings.Builder
		imgs []string
		size int
	)
	for _, c := range res.Content {
		switch v := c.(type) {
		case *sdk.TextContent:
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(v.Text)
			size += len(v.Text)
		case *sdk.ImageContent:
			if v.MIMEType != "image/png" && v.MIMEType != "image/jpeg" {
				continue
			}
			u := dataurl.Encode(v.MIMEType, v.Data)
			imgs = append(imgs, u)
			size += len(u)
		}
	}
	if b.Len() == 0 && res.StructuredContent != nil {
		if raw, err := json.Marshal(res.StructuredContent); err == nil {
			b.Write(raw)
			size += len(raw)
		}
	}
	if size > MaxResultBytes {
		s.log.Warn("mcp.result_too_large", "server", s.cfg.Name, "tool", tool, "bytes", size)
		return "", nil, fmt.Errorf("MCP tool %s answered %d bytes, over the %d a result may have", tool, size, MaxResultBytes)
	}
	text := b.String()
	if res.IsError {
		return "", nil, errors.New(strings.TrimSpace("MCP tool " + tool + " failed: " + text))
	}
	if text == "" && len(imgs) == 0 {
		text = "ok"
	}
	return text, imgs, nil
}

// description is a tool's description as declared, bounded.
func description(t *sdk.Tool) string {
	d := t.Description
	if d == "" {
		d = t.Title
	}
	if len(d) > maxDescription {
		d = d[:maxDescription]
		for len(d) > 0 && !utf8.ValidString(d) {
			d = d[:len(d)-1]
		}
	}
	return d
}
