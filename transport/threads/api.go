package threads

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"yui/transport/httpapi"
)

// Bounds of what the runtime's HTTP answers may fill.
const (
	// maxBody bounds an ordinary answer (auth, agents, thread, send, stop).
	maxBody = 1 << 20
	// maxMessagesBody bounds the one catch-up read.
	maxMessagesBody = 16 << 20
	// maxErrorBody bounds what is read of an error answer.
	maxErrorBody = 64 << 10
	// CatchUpLimit is how many of the newest messages the catch-up read
	// asks for.
	CatchUpLimit = 100
)

// API is the runtime's HTTP surface around the stream: the credential
// check, agents, threads, messages, stop and WebSocket tickets. The key
// travels only as `Authorization: Bearer` to the base URL's origin; no
// redirect is followed; the proxy is httpapi's rule. Safe for concurrent
// use.
type API struct {
	origin string
	key    string
	hc     *http.Client
}

// guarded returns hc (or httpapi's default client: the environment's
// proxy but never for loopback) with redirects refused — the key stays
// with the origin it was entered for.
func guarded(hc *http.Client) *http.Client { return httpapi.Guard(hc) }

// Origin is the runtime origin of a base URL: scheme and host, lower case,
// without path, query or credentials ("https://agents.example.com"). The
// runtime's routes live under /api at the origin, so a path in the base URL
// is not used. ws and wss read as http and https.
func Origin(base string) (string, error) {
	base = strings.TrimSpace(base)
	if base == "" {
		return "", ErrNoBase
	}
	u, err := url.Parse(base)
	if err != nil {
		return "", fmt.Errorf("base URL: %w", err)
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "ws":
		scheme = "http"
	case "wss":
		scheme = "https"
	}
	if (scheme != "http" && scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("base URL %q: must be http(s) with a host", u.Redacted())
	}
	return scheme + "://" + strings.ToLower(u.Host), nil
}

// ErrNoBase: no base URL is set.
var ErrNoBase = errors.New("no base URL")

// NewAPI returns the API of the runtime at base with key ("" sends no
// Authorization header). hc nil is httpapi.NewClient().
func NewAPI(hc *http.Client, base, key string) (*API, error) {
	o, err := Origin(base)
	if err != nil {
		return nil, err
	}
	return &API{origin: o, key: key, hc: guarded(hc)}, nil
}

// threadIDPattern is what a thread id may be: it goes into a URL path, and
// the ticket endpoint refuses dots, empty segments and percent escapes.
var threadIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)

// ValidThreadID reports whether id can name a thread in a path.
func ValidThreadID(id string) bool { return threadIDPattern.MatchString(id) }

// StreamPath is the stream's pathname for a thread, the exact string a
// ticket is minted for.
func StreamPath(threadID string) string { return "/api/threads/" + threadID + "/stream" }

// do sends one request and decodes a 2xx JSON answer into out (nil: the
// body is read and dropped), reading at most limit bytes.
func (a *API) do(ctx context.Context, method, path string, body any, out any, limit int64) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("threads: encode %s %s: %w", method, path, err)
		}
		rd = bytes.NewReader(b)
	}
	return a.doRaw(ctx, method, path, rd, out, limit)
}

func (a *API) doRaw(ctx context.Context, method, path string, body io.Reader, out any, limit int64) error {
	req, err := http.NewRequestWithContext(ctx, method, a.origin+path, body)
	if err != nil {
		return fmt.Errorf("threads: %s %s: %w", method, path, err)
	}
	if a.key != "" {
		req.Header.Set("Authorization", "Bearer "+a.key)
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return fmt.Errorf("threads: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("threads: %s %s: %w", method, path, readAPIError(resp, a.key))
	}
	if out == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, limit))
		return nil
	}
	lr := &io.LimitedReader{R: resp.Body, N: limit + 1}
	if err := json.NewDecoder(lr).Decode(out); err != nil {
		if lr.N <= 0 {
			return fmt.Errorf("threads: %s %s: answer over %d bytes", method, path, limit)
		}
		return fmt.Errorf("threads: %s %s: unreadable answer: %w", method, path, err)
	}
	return nil
}

// User is who GET /api/auth/me says the key belongs to.
type User struct {
	ID       json.RawMessage `json:"id"`
	Username string          `json:"username"`
	Role     string          `json:"role"`
}

// Me is GET /api/auth/me: the cheap "is this key good" check. A refused key
// is an *APIError whose Refused reports true.
func (a *API) Me(ctx context.Context) (User, error) {
	var v struct {
		User     User   `json:"user"`
		AuthType string `json:"authType"`
	}
	err := a.do(ctx, http.MethodGet, "/api/auth/me", nil, &v, maxBody)
	return v.User, err
}

// Agent is one entry of GET /api/agents.
type Agent struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Label is how a picker names the agent: its title, else its name or id.
func (g Agent) Label() string {
	for _, s := range []string{g.Title, g.Name, g.ID} {
		if strings.TrimSpace(s) != "" {
			return httpapi.OneLine(s, 80)
		}
	}
	return "(unnamed agent)"
}

// Agents is GET /api/agents, at most 500 of them.
func (a *API) Agents(ctx context.Context) ([]Agent, error) {
	var v struct {
		Agents []Agent `json:"agents"`
	}
	if err := a.do(ctx, http.MethodGet, "/api/agents", nil, &v, 8<<20); err != nil {
		return nil, err
	}
	out := v.Agents[:0]
	for _, g := range v.Agents {
		if g.ID == "" {
			g.ID = g.Name
		}
		if g.ID != "" {
			out = append(out, g)
		}
		if len(out) == 500 {
			break
		}
	}
	return out, nil
}

// CreateThread is POST /api/threads for agentID: the new thread's id.
func (a *API) CreateThread(ctx context.Context, agentID string, tags []string) (string, error) {
	if tags == nil {
		tags = []string{}
	}
	var v struct {
		ThreadID string `json:"threadId"`
		ID       string `json:"id"`
		Thread   struct {
			ID string `json:"id"`
		} `json:"thread"`
	}
	if err := a.do(ctx, http.MethodPost, "/api/threads", map[string]any{"agent_id": agentID, "tags": tags}, &v, maxBody); err != nil {
		return "", err
	}
	id := v.ThreadID
	if id == "" {
		id = v.ID
	}
	if id == "" {
		id = v.Thread.ID
	}
	if !ValidThreadID(id) {
		return "", fmt.Errorf("threads: POST /api/threads: the answer named no usable thread id (%q)", httpapi.OneLine(id, 80))
	}
	return id, nil
}

// ThreadInfo is what GET /api/threads/<id> says of a thread.
type ThreadInfo struct {
	ID         string          `json:"id"`
	AgentID    string          `json:"agent_id"`
	Terminated json.RawMessage `json:"terminated"`
}

// Thread is GET /api/threads/<id>; a deleted thread is a 404 (IsNotFound).
func (a *API) Thread(ctx context.Context, id string) (ThreadInfo, error) {
	if !ValidThreadID(id) {
		return ThreadInfo{}, fmt.Errorf("threads: thread id %q is not a usable id", httpapi.OneLine(id, 80))
	}
	var v struct {
		Thread ThreadInfo `json:"thread"`
	}
	err := a.do(ctx, http.MethodGet, "/api/threads/"+id, nil, &v, maxBody)
	return v.Thread, err
}

// Messages is the catch-up read: GET /api/threads/<id>/messages with the
// newest CatchUpLimit top-level messages, oldest first, as raw records.
func (a *API) Messages(ctx context.Context, id string) ([]json.RawMessage, error) {
	var v struct {
		Messages []json.RawMessage `json:"messages"`
	}
	q := url.Values{"limit": {strconv.Itoa(CatchUpLimit)}, "depth": {"0"}}
	err := a.do(ctx, http.MethodGet, "/api/threads/"+id+"/messages?"+q.Encode(), nil, &v, maxMessagesBody)
	return v.Messages, err
}

// Attachment is one file of a message (an image: its data is base64).
type Attachment struct {
	Name     string `json:"name"`
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
	Width    int    `json:"width,omitempty"`
	Height   int    `json:"height,omitempty"`
}

// Send is the body of POST /api/threads/<id>/messages.
type Send struct {
	Role        string       `json:"role"`
	Content     string       `json:"content"`
	Attachments []Attachment `json:"attachments,omitempty"`
	Silent      bool         `json:"silent"`
}

// SendRaw is POST /api/threads/<id>/messages with an encoded Send body: the
// user message's id, which the later message_data frames carry.
func (a *API) SendRaw(ctx context.Context, id string, body []byte) (string, error) {
	var v map[string]json.RawMessage
	if err := a.doRaw(ctx, http.MethodPost, "/api/threads/"+id+"/messages", bytes.NewReader(body), &v, maxBody); err != nil {
		var ae *APIError
		if errors.As(err, &ae) || !strings.Contains(err.Error(), "unreadable answer") {
			return "", err
		}
		// Accepted, with an answer this client cannot read: the message
		// went out; its run is found by its start.
		return "", nil
	}
	return str(v["messageId"]), nil
}

// Stop is POST /api/threads/<id>/stop.
func (a *API) Stop(ctx context.Context, id string) error {
	return a.do(ctx, http.MethodPost, "/api/threads/"+id+"/stop", map[string]any{}, nil, maxBody)
}

// Ticket is POST /api/auth/websocket-ticket for pathname: a single-use
// ticket, valid for about 30 s, for exactly that path.
func (a *API) Ticket(ctx context.Context, pathname string) (string, error) {
	var v struct {
		Ticket string `json:"ticket"`
	}
	if err := a.do(ctx, http.MethodPost, "/api/auth/websocket-ticket", map[string]string{"pathname": pathname}, &v, maxBody); err != nil {
		return "", err
	}
	if v.Ticket == "" {
		return "", errors.New("threads: POST /api/auth/websocket-ticket: no ticket in the answer")
	}
	return v.Ticket, nil
}

// StreamURL is the stream's WebSocket URL for a thread: depth 0 (the
// top-level thread), reasoning on, and the ticket when there is one.
func (a *API) StreamURL(threadID, ticket string) string {
	u := "ws" + strings.TrimPrefix(a.origin, "http") + StreamPath(threadID)
	q := url.Values{"depth": {"0"}, "reasoning": {"1"}}
	if ticket != "" {
		q.Set("ticket", ticket)
	}
	return u + "?" + q.Encode()
}

// Origin is the API's origin.
func (a *API) Origin() string { return a.origin }
