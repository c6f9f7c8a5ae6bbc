package life

import (
	"context"
	"image"
	"log/slog"
	"sync"
	"time"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/app/capture"
	"yui/app/clientctx"
	"yui/app/look"
	"yui/app/perch"
	"yui/app/session"
	"yui/app/view"
)

// Pages is the view server.
type Pages interface {
	Publish(preset, topic string, m view.Message)
	Send(role, preset string, m view.Message)
}

// Host is what the room asks of the core.
type Host interface {
	// Place is where preset id's window is now (its saved place); ok is
	// false when it was never placed.
	Place(id string) (image.Point, bool)
}

// Config makes a Room.
type Config struct {
	Pages Pages
	Host  Host
	// Screen lists the monitors.
	Screen capture.Source
	// Desktop lists and watches the windows she can sit on; nil means no
	// desktop (every action answers "error: unsupported").
	Desktop perch.Desktop
	// OwnPIDs are the processes of Yui's windows, never a perch (nor a
	// window that covers one).
	OwnPIDs []int
	Logger  *slog.Logger
	// Now is the clock of the body's "since"; nil is time.Now.
	Now func() time.Time
}

// Room is the life room. Create it with New.
type Room struct {
	cfg Config
	log *slog.Logger

	mu    sync.Mutex
	chars map[string]*char
}

// New makes the room.
func New(cfg Config) *Room {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Room{cfg: cfg, log: cfg.Logger, chars: map[string]*char{}}
}

// char returns preset id's character, made on first use where her window
// is (Host.Place).
func (r *Room) char(id string) *char {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.chars[id]; ok {
		return c
	}
	c := &char{id: id, room: r, log: r.log.With("preset", id)}
	at, _ := r.cfg.Host.Place(id)
	c.body = body.New(at, monitorOf(r.monitors(), at), r.cfg.Now, c.published)
	r.chars[id] = c
	return c
}

// Body is preset id's body: its state for `look at: body` and the
// client_context line.
func (r *Room) Body(id string) body.State { return r.char(id).body.State() }

// Look is preset id's body as `look at: body` answers it.
func (r *Room) Look(id string) look.BodyState { return r.Body(id).Look() }

// Context is preset id's body line.
func (r *Room) Context(id string) clientctx.Body { return r.Body(id).Context() }

// Actor is what preset id's body_action tool runs; nil without a desktop.
func (r *Room) Actor(id string) bodyaction.Actor {
	if r.cfg.Desktop == nil {
		return nil
	}
	return actor{r: r, id: id}
}

// actor finds the character at each call, so a character removed and
// made again gets a fresh body.
type actor struct {
	r  *Room
	id string
}

func (a actor) Act(ctx context.Context, act bodyaction.Action) string {
	return a.r.char(a.id).Act(ctx, act)
}

// Windows are the windows she can sit on (what look's perch targets
// list), nil without a desktop.
func (r *Room) Windows() look.Windows {
	if r.cfg.Desktop == nil {
		return nil
	}
	return r.cfg.Desktop
}

// OnEvent hears preset id's session events: a turn the user typed or
// spoke, and any speech, wake her.
func (r *Room) OnEvent(id string, ev session.Event) {
	switch e := ev.(type) {
	case session.TurnSent:
		if e.Text != "" {
			r.char(id).wake("turn")
		}
	case session.SpeechStart:
		r.char(id).wake("speech")
	}
}

// Remove ends preset id's character: her action and her perch stop.
func (r *Room) Remove(id string) {
	r.mu.Lock()
	c := r.chars[id]
	delete(r.chars, id)
	r.mu.Unlock()
	if c != nil {
		c.stopAll(errRemoved)
	}
}

// PublishTo sets preset id's page's body topic.
func (r *Room) PublishTo(id string) {
	c := r.char(id)
	c.publish(c.body.State(), true)
}

// monitors are the monitors now (nil when unknown).
func (r *Room) monitors() []capture.Monitor {
	if r.cfg.Screen == nil {
		return nil
	}
	ms, err := r.cfg.Screen.Monitors()
	if err != nil {
		r.log.Warn("monitors_unavailable", "err", err.Error())
		return nil
	}
	return ms
}
