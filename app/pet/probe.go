package pet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"yui/transport/chatcompletions"
	"yui/transport/push"
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
}

// Probe tries a backend as the settings form has it: GET {base}/models
// for the request wires, a hello for push (chatID names the conversation
// it would use). The key goes to base only. hc nil is the wire's default.
func Probe(ctx context.Context, hc *http.Client, chatAPI, base, key, chatID string) ProbeResult {
	base = strings.TrimSpace(base)
	if base == "" {
		return ProbeResult{Kind: "unreachable", Text: "No base URL: type the server's address first."}
	}
	host := base
	if u, err := url.Parse(base); err == nil && u.Host != "" {
		host = u.Host
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
		return ProbeResult{Kind: "unreachable", Text: "Cannot reach " + host + ": " + reason(err) + "."}
	case chatAPI == Push:
		err := push.Probe(ctx, hc, base, key, chatID)
		switch {
		case err == nil:
			return ProbeResult{Kind: "ok", Text: "Connected: the backend answered ready."}
		case errors.Is(err, push.ErrUnauthorized):
			return ProbeResult{Kind: "refused", Text: "The key was refused (4401). Check the key."}
		}
		return ProbeResult{Kind: "unreachable", Text: "Cannot reach " + host + ": " + reason(err) + "."}
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
