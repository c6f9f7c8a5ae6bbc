package look

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"yui/app/capture"
	"yui/app/jpegfit"
	"yui/app/permission"
	"yui/transport"
)

// Name is the tool's name in hello.tools.
const Name = "look"

// Description and Parameters are the schema of the push spec's hello
// example, verbatim.
const (
	Description = "Read body state, perch targets, or a display screenshot; screen requests require user permission"
	Parameters  = `{"type":"object","properties":{"at":{"type":"string","enum":["body","perch_targets","screen"]},` +
		`"monitor":{"type":"integer","description":"For screen: the display number used by body_action.monitor; omit for the character's display"}},` +
		`"required":["at"],"additionalProperties":false}`
)

// The answers of a screen request without permission.
const (
	ResultPending = "error: permission pending: asked the user"
	ResultDenied  = "error: permission denied"
	resultNoField = "error: invalid field monitor"
)

// Gate is the permission check of a screen request (permission.Gate).
type Gate interface {
	Request(monitor int) (*permission.Grant, error)
}

// Config are the tool's providers.
type Config struct {
	// Body is the character's state; nil reads a standing body on monitor 0.
	Body Body
	// Windows lists the windows for perch targets; nil lists none.
	Windows Windows
	// Screen lists the monitors (perch edges, monitor checks) and
	// captures; nil: no monitors, and screen requests fail.
	Screen capture.Source
	// Gate decides screen requests; nil denies every one.
	Gate Gate
	// OwnPIDs are the processes of Yui's windows; OwnTitlePrefix (default
	// OwnTitlePrefix) the start of their titles. Both are left out of the
	// perch targets.
	OwnPIDs        []int
	OwnTitlePrefix string
	// Logger receives look lines (never pixels); nil discards.
	Logger *slog.Logger
	// Now is the clock that bounds the screenshot's fit in time; nil
	// means time.Now.
	Now func() time.Time
}

// Tool is the look tool.
type Tool struct {
	cfg Config
	log *slog.Logger
}

var _ transport.Tool = (*Tool)(nil)

// New returns the tool.
func New(cfg Config) *Tool {
	if cfg.OwnTitlePrefix == "" {
		cfg.OwnTitlePrefix = OwnTitlePrefix
	}
	if cfg.Body == nil {
		cfg.Body = BodyFunc(func() BodyState { return BodyState{Posture: "standing"} })
	}
	t := &Tool{cfg: cfg, log: cfg.Logger}
	if t.log == nil {
		t.log = slog.New(slog.DiscardHandler)
	}
	return t
}

// Schema is the declaration in hello.tools.
func (t *Tool) Schema() transport.FunctionSchema {
	return transport.FunctionSchema{Name: Name, Description: Description, Parameters: json.RawMessage(Parameters)}
}

// Wait is the limits table's query wait (2 s).
func (t *Tool) Wait() time.Duration { return transport.ClientToolWait(Name) }

// Validate answers argument errors at once.
func (t *Tool) Validate(raw json.RawMessage) error {
	_, err := parseArgs(raw)
	return err
}

// Run answers one call.
func (t *Tool) Run(ctx context.Context, call transport.ToolCall) (string, []string, error) {
	a, err := parseArgs(call.Arguments)
	if err != nil {
		return "", nil, err
	}
	switch a.At {
	case AtBody:
		s, err := bodyText(t.cfg.Body.BodyState())
		return s, nil, err
	case AtPerch:
		return t.perch()
	}
	return t.screen(ctx, a.Monitor)
}

func (t *Tool) monitors() ([]capture.Monitor, error) {
	if t.cfg.Screen == nil {
		return nil, nil
	}
	ms, err := t.cfg.Screen.Monitors()
	if err != nil {
		return nil, fmt.Errorf("look: monitors: %w", err)
	}
	return ms, nil
}

func (t *Tool) perch() (string, []string, error) {
	ms, err := t.monitors()
	if err != nil {
		return "", nil, err
	}
	var ws []Window
	if t.cfg.Windows != nil {
		if ws, err = t.cfg.Windows.Windows(); err != nil {
			return "", nil, fmt.Errorf("look: perch targets: %w", err)
		}
	}
	s, err := perchText(ws, ms, t.cfg.OwnPIDs, t.cfg.OwnTitlePrefix)
	return s, nil, err
}

func (t *Tool) screen(ctx context.Context, want *int) (string, []string, error) {
	monitor := 0
	if want != nil {
		monitor = *want
	} else {
		monitor = t.cfg.Body.BodyState().Monitor
	}
	if t.cfg.Screen == nil {
		return "", nil, errors.New("look: no screen to capture")
	}
	ms, err := t.monitors()
	if err != nil {
		return "", nil, err
	}
	if _, ok := capture.Find(ms, monitor); !ok {
		return resultNoField, nil, nil
	}
	if t.cfg.Gate == nil {
		return ResultDenied, nil, nil
	}
	g, err := t.cfg.Gate.Request(monitor)
	switch {
	case errors.Is(err, permission.ErrPending):
		return ResultPending, nil, nil
	case errors.Is(err, permission.ErrDenied):
		return ResultDenied, nil, nil
	case err != nil:
		return "", nil, fmt.Errorf("look: permission: %w", err)
	}
	// The answer is due within the client wait: the fit gets half of it
	// from now, capture included, and settles for a smaller image rather
	// than a late one.
	fitBy := jpegfit.Deadline{At: t.now().Add(t.Wait() / 2), Now: t.cfg.Now}
	shot, err := t.cfg.Screen.Capture(ctx, g)
	if err != nil {
		return "", nil, fmt.Errorf("look: %w", err)
	}
	room, ok := transport.ImageRoom(ctx)
	if !ok {
		room = defaultImageRoom
	}
	url, o, err := jpegfit.FitRGBA(ctx, shot.Image, room, fitBy)
	if errors.Is(err, jpegfit.ErrTooLarge) {
		// Rule 4's answer when no image fits the frame.
		t.log.Warn("look.screen_too_large", "monitor", monitor, "room", room)
		return transport.ResultTooLarge, nil, nil
	}
	if err != nil {
		return "", nil, fmt.Errorf("look: screenshot of monitor %d: %w", monitor, err)
	}
	t.log.Info("look.screen", "monitor", monitor, "width", shot.Image.Rect.Dx(), "height", shot.Image.Rect.Dy(),
		"sent_width", o.Width, "sent_height", o.Height, "quality", o.Quality, "bytes", o.Bytes)
	return "ok", []string{url}, nil
}

// defaultImageRoom is the screenshot's room when the wire states none:
// the push spec's default frame size, less the frame's own fields.
const defaultImageRoom = 256<<10 - 1024

// now reads the tool's clock.
func (t *Tool) now() time.Time {
	if t.cfg.Now != nil {
		return t.cfg.Now()
	}
	return time.Now()
}
