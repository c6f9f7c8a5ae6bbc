package pet

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"yui/app/conncause"
	"yui/app/phrase"
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
	// Text is the line shown beside the button, in English: Msg's
	// sentences joined by spaces.
	Text string
	// Msg is Text as phrases (one a sentence) the page words in its
	// language.
	Msg []phrase.Phrase
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
	return ProbeResult{Kind: kind, Text: c.Text, Msg: []phrase.Phrase{c.Msg}, Cause: string(c.Kind), Settings: c.Settings}
}

// said is a result of kind saying the phrases ms, one a sentence.
func said(kind string, ms ...phrase.Phrase) ProbeResult {
	r := ProbeResult{Kind: kind}
	r.say(ms...)
	return r
}

// say adds sentences to r's text.
func (r *ProbeResult) say(ms ...phrase.Phrase) {
	for _, m := range ms {
		r.Msg = append(r.Msg, m)
		if r.Text != "" {
			r.Text += " "
		}
		r.Text += m.English()
	}
}

// fromCause is a result of kind saying cause c.
func fromCause(kind string, c conncause.Cause) ProbeResult {
	r := said(kind, c.Msg)
	r.Cause, r.Settings = string(c.Kind), c.Settings
	return r
}

// counted is the phrase key for n things: key+"_one" for 1, else key.
func counted(key string, n int) string {
	if n == 1 {
		return key + "_one"
	}
	return key
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
		return said("unreachable", phrase.New("core.test.no_base_url"))
	}
	switch {
	case IsRequestWire(chatAPI):
		models, err := chatcompletions.ListModels(ctx, hc, base, key)
		var se *chatcompletions.StatusError
		switch {
		case err == nil && len(models) == 0:
			return said("ok", phrase.New("core.test.no_models"))
		case err == nil:
			r := said("ok", phrase.New(counted("core.test.models", len(models)), "n", strconv.Itoa(len(models))))
			r.Models = models
			return r
		case errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden):
			return said("refused", phrase.New("core.test.key_refused", "status", strconv.Itoa(se.Status)))
		case errors.As(err, &se):
			return said("failed", phrase.New("core.test.server_answered", "error", se.Error()))
		}
		if c, ok := conncause.Unexpected(err, base, conncause.WantModels); ok {
			return fromCause("failed", c)
		}
		return explained("unreachable", err, base)
	case chatAPI == Push:
		err := push.Probe(ctx, hc, base, key, chatID)
		switch {
		case err == nil:
			return said("ok", phrase.New("core.test.push_ready"))
		case errors.Is(err, push.ErrUnauthorized):
			r := said("refused", phrase.New("core.test.key_refused_push"))
			r.Cause, r.Settings = string(conncause.Key), true
			return r
		}
		var up *transport.UpgradeStatusError
		if errors.As(err, &up) && up.Status < 500 && up.Status != 401 && up.Status != 403 {
			return explained("failed", err, base)
		}
		return explained("unreachable", err, base)
	}
	return said("unsupported", phrase.New("core.test.unsupported"))
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
		return said("unreachable", phrase.New("core.test.no_runtime_url"))
	}
	api, err := threads.NewAPI(hc, base, key)
	if err != nil {
		return said("failed", phrase.New("core.test.bad_url", "reason", reason(err)))
	}
	host := strings.TrimPrefix(strings.TrimPrefix(api.Origin(), "https://"), "http://")
	user, err := api.Me(ctx)
	var ae *threads.APIError
	switch {
	case threads.IsRefused(err):
		errors.As(err, &ae)
		return said("refused", phrase.New("core.test.key_refused", "status", strconv.Itoa(ae.Status)))
	case errors.As(err, &ae):
		return said("failed", phrase.New("core.test.runtime_answered", "error", ae.Error()))
	case err != nil:
		if c, ok := conncause.Unexpected(err, base, conncause.WantAgents); ok {
			return fromCause("failed", c)
		}
		return said("unreachable", phrase.New("core.test.cannot_reach", "host", host, "reason", reason(err)))
	}
	// who is the phrase beginning "Connected" (…"as USER" when the
	// runtime named the user).
	who := func(key string, pairs ...string) phrase.Phrase {
		if user.Username != "" {
			return phrase.New(key+"_as", append(pairs, "user", user.Username)...)
		}
		return phrase.New(key, pairs...)
	}
	list, err := api.Agents(ctx)
	if err != nil {
		return said("failed", who("core.test.agents_failed", "reason", reason(err)))
	}
	r := ProbeResult{Kind: "ok", Agents: make([]AgentChoice, len(list))}
	var (
		chosen *threads.Agent
		head   phrase.Phrase
	)
	for i, g := range list {
		r.Agents[i] = AgentChoice{ID: g.ID, Label: g.Label()}
		if g.ID == strings.TrimSpace(agent) {
			chosen = &list[i]
		}
	}
	switch {
	case strings.TrimSpace(agent) == "":
		head = who(counted("core.test.agents_listed", len(list)), "n", strconv.Itoa(len(list)))
	case chosen == nil:
		r.Kind = "failed"
		r.say(who("core.test.agent_missing", "agent", agent, "n", strconv.Itoa(len(list))))
		return r
	default:
		head = who("core.test.agent_found", "agent", chosen.Label())
	}
	thread = strings.TrimSpace(thread)
	if thread == "" {
		r.say(head)
		if chosen != nil {
			r.say(phrase.New("core.test.new_thread_on_save"))
		}
		return r
	}
	if !threads.ValidThreadID(thread) {
		r.Kind = "failed"
		r.say(who("core.test.bad_thread", "thread", thread))
		return r
	}
	info, err := api.Thread(ctx, thread)
	switch {
	case threads.IsNotFound(err):
		r.Kind = "failed"
		r.say(who("core.test.thread_deleted", "thread", thread))
	case err != nil:
		r.Kind = "failed"
		r.say(who("core.test.thread_unreadable", "reason", reason(err)))
	case chosen != nil && info.AgentID != "" && info.AgentID != chosen.ID:
		r.say(head, phrase.New("core.test.thread_other_agent", "agent", info.AgentID))
	default:
		r.say(head, phrase.New("core.test.thread_there"))
	}
	return r
}
