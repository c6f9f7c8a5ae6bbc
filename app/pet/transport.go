package pet

import (
	"fmt"
	"log/slog"

	"yui/app/jpegfit"
	"yui/transport"
	"yui/transport/push"
)

// Wires this build can run, in the order the settings window offers them.
var Wires = []string{"push"}

// newTransport builds the wire the preset's chat_api names. A chat_api
// this build cannot run gets a push transport that is never configured, so
// the pet says so rather than failing.
func newTransport(cfg Config, tools []transport.Tool, vocab transport.Vocabulary, lg *slog.Logger) (transport.Transport, error) {
	p := cfg.Preset
	endpoint := cfg.Endpoint
	switch p.ChatAPI {
	case "push":
	default:
		endpoint = func() string { return "" }
	}
	t, err := push.NewTransport(push.Config{
		Endpoint:    endpoint,
		Key:         cfg.Key,
		ChatID:      p.ChatID,
		Vocabulary:  vocab,
		Tools:       tools,
		ImageFitter: jpegfit.URLFitter{},
		Logger:      lg,
		HTTPClient:  cfg.HTTPClient,
	})
	if err != nil {
		return nil, fmt.Errorf("push transport: %w", err)
	}
	return t, nil
}
