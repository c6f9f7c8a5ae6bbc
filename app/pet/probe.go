package pet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"yui/app/conncause"
	"yui/transport"
	"yui/transport/chatcompletions"
	"yui/transport/push"
	"yui/transport/threads"
)

// ProbeResult is what "Test connection" shows.
type ProbeResult struct {
	// Kind: "ok", "refused" (the key), "unreachable", "failed" (the
	// server answered with an error) or "unsupported".
	Kind string
	// Text is the line shown beside the button.
	Text string
	// Models are the ids GET {base}/models listed (request wires).
	Models []string
	// Cause is the failure's conncause kind ("refused", "no_host",
	// "not_push", …); "" on success or when the server answered.
	Cause string
	// Settings: the fix is another setting (the API, the address, the
	// key), not a server to start.
	Settings bool
	// Agents are the agents GET /api/agents listed (Standard Agents).
	Agents []AgentChoice
}

// explained is the result of a failed attempt, in conncause's words.
func explained(kind string, err error, base string) ProbeResult {
	c := conncause.Explain(err, base)
	if c.Kind == conncause.Key {
		kind = "refused"
	}
	return ProbeResult{Kind: kind, Text: c.Text, Cause: string(c.Kind), Settings: c.Settings}
}

// AgentChoice is one agent of a Standard Agents runtime, for the picker.
type AgentChoice struct {
	ID    string
	Label string
}

// Probe tries a backend as the settings form has it: GET {base}/models
// for the request wires, a hello for push (chatID names the conversation
// it would use). The key goes to base only. hc nil is the wire's default.
func Probe(ctx context.Context, hc *http.Client, chatAPI, base, key, chatID string) ProbeResult {
	base = strings.TrimSpace(base)
	if base == "" {
		return ProbeResult{Kind: "unreachable", Text: "No base URL: type the server's address first."}
	}
	switch {
	case IsRequestWire(chatAPI):
		models, err := chatcompletions.ListModels(ctx, hc, base, key)
		var se *chatcompletions.StatusError
		switch {
		case err == nil && len(models) == 0:
			return ProbeResult{Kind: "ok", Text: "Connected; the server lists no models (type the model name)."}
		case err == nil:
			return ProbeResult{Kind: "ok", Text: fmt.Sprintf("Connected: %d model%s listed.", len(models), plural(len(models))), Models: models}
		case errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden):
			return ProbeResult{Kind: "refused", Text: fmt.Sprintf("The key was refused (HTTP %d). Check the key.", se.Status)}
		case errors.As(err, &se):
			return ProbeResult{Kind: "failed", Text: "The server answered " + se.Error() + "."}
		}
		if c, ok := conncause.Unexpected(err, base, "a model list"); ok {
			return ProbeResult{Kind: "failed", Text: c.Text, Cause: string(c.Kind), Settings: c.Settings}
		}
		return explained("unreachable", err, base)
	case chatAPI == Push:
		err := push.Probe(ctx, hc, base, key, chatID)
		switch {
		case err == nil:
			return ProbeResult{Kind: "ok", Text: "Connected: the backend answered ready."}
		case errors.Is(err, push.ErrUnauthorized):
			return ProbeResult{Kind: "refused", Text: "The key was refused (4401). Check the key.", Cause: string(conncause.Key), Settings: true}
		}
		var up *transport.UpgradeStatusError
		if errors.As(err, &up) && up.Status < 500 && up.Status != 401 && up.Status != 403 {
			return explained("failed", err, base)
		}
		return explained("unreachable", err, base)
	}
	return ProbeResult{Kind: "unsupported", Text: "This version cannot test that API."}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// reason is the end of a network error's chain, the part a person reads
// ("connection refused", "no such host").
func reason(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && i+2 < len(msg) {
		msg = msg[i+2:]
	}
	return msg
}

// ProbeThreads tries a Standard Agents runtime as the settings form has
// it: the key (GET /api/auth/me), the agents (GET /api/agents, for the
// picker), the chosen agent, and the thread when one is set (GET
// /api/threads/<id>; a deleted one says so). The key goes to base's origin
// only. hc nil is the wire's default.
func ProbeThreads(ctx context.Context, hc *http.Client, base, key, agent, thread string) ProbeResult {
	base = strings.TrimSpace(base)
	if base == "" {
		return ProbeResult{Kind: "unreachable", Text: "No base URL: type the runtime's address first."}
	}
	api, err := threads.NewAPI(hc, base, key)
	if err != nil {
		return ProbeResult{Kind: "failed", Text: "The base URL is not usable: " + reason(err) + "."}
	}
	host := strings.TrimPrefix(strings.TrimPrefix(api.Origin(), "https://"), "http://")
	user, err := api.Me(ctx)
	var ae *threads.APIError
	switch {
	case threads.IsRefused(err):
		errors.As(err, &ae)
		return ProbeResult{Kind: "refused", Text: fmt.Sprintf("The key was refused (HTTP %d). Check the key.", ae.Status)}
	case errors.As(err, &ae):
		return ProbeResult{Kind: "failed", Text: "The runtime answered " + ae.Error() + "."}
	case err != nil:
		if c, ok := conncause.Unexpected(err, base, "what a Standard Agents runtime sends"); ok {
			return ProbeResult{Kind: "failed", Text: c.Text, Cause: string(c.Kind), Settings: c.Settings}
		}
		return ProbeResult{Kind: "unreachable", Text: "Cannot reach " + host + ": " + reason(err) + "."}
	}
	who := "Connected"
	if user.Username != "" {
		who = "Connected as " + user.Username
	}
	list, err := api.Agents(ctx)
	if err != nil {
		return ProbeResult{Kind: "failed", Text: who + ", but the agents could not be listed: " + reason(err) + "."}
	}
	r := ProbeResult{Kind: "ok", Agents: make([]AgentChoice, len(list))}
	var chosen *threads.Agent
	for i, g := range list {
		r.Agents[i] = AgentChoice{ID: g.ID, Label: g.Label()}
		if g.ID == strings.TrimSpace(agent) {
			chosen = &list[i]
		}
	}
	switch {
	case strings.TrimSpace(agent) == "":
		r.Text = fmt.Sprintf("%s: %d agent%s listed; pick one.", who, len(list), plural(len(list)))
	case chosen == nil:
		r.Kind = "failed"
		r.Text = fmt.Sprintf("%s, but the agent “%s” is not on this runtime; pick one of the %d listed.", who, agent, len(list))
		return r
	default:
		r.Text = fmt.Sprintf("%s; agent “%s” found.", who, chosen.Label())
	}
	thread = strings.TrimSpace(thread)
	if thread == "" {
		if r.Kind == "ok" && chosen != nil {
			r.Text += " A new thread is made when you save."
		}
		return r
	}
	if !threads.ValidThreadID(thread) {
		r.Kind = "failed"
		r.Text = who + ", but “" + thread + "” is not a thread id (letters, digits, - and _)."
		return r
	}
	info, err := api.Thread(ctx, thread)
	switch {
	case threads.IsNotFound(err):
		r.Kind = "failed"
		r.Text = who + ", but the thread " + thread + " was deleted (or never existed). Start a new thread."
	case err != nil:
		r.Kind = "failed"
		r.Text = who + ", but the thread could not be read: " + reason(err) + "."
	case chosen != nil && info.AgentID != "" && info.AgentID != chosen.ID:
		r.Text += " The thread belongs to agent “" + info.AgentID + "”."
	default:
		r.Text += " The thread is there."
	}
	return r
}
