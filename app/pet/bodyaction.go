package pet

import (
	"yui/app/bodyaction"
	"yui/app/clientctx"
	"yui/transport"
)

// bodyTool is main's body_action tool (client-notes §5): cfg.BodyActor
// runs it; without one (no desktop) it answers "error: unsupported".
func bodyTool(cfg Config) transport.Tool { return bodyaction.New(cfg.BodyActor) }

// bodyLine is the client_context body line's source: cfg.BodyLine, else
// standing.
func bodyLine(cfg Config) func() clientctx.Body {
	if cfg.BodyLine != nil {
		return cfg.BodyLine
	}
	return func() clientctx.Body { return clientctx.Body{Posture: clientctx.Standing} }
}
