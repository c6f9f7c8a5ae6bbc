package permission

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"yui/app/settings"
)

// OnceFor is how long an "Allow once" (and a "Deny") answer is remembered
// for the next request.
const OnceFor = 2 * time.Minute

// Config configures a Gate.
type Config struct {
	// Preset is the preset's id (prompts and logs).
	Preset string
	// Backend is the preset's backend as the prompt names it (its name or
	// chat_base_url).
	Backend string
	// Permissions are the preset's settings at start.
	Permissions settings.Permissions
	// Save persists a mode chosen in a prompt ("Always for this character"
	// saves ModeAllow). Nil keeps it in memory only.
	Save func(Mode) error
	// OnPrompt shows a prompt; OnPromptClosed withdraws one that was not
	// answered (replaced, or the mode changed). Nil drops them.
	OnPrompt       func(Prompt)
	OnPromptClosed func(id uint64)
	// OnAnswered is told the prompt the user answered and the choice,
	// after the gate applied it (the follow-up turn: the agent that asked
	// hears the answer). Not called for a refused answer (stale prompt,
	// unknown choice); called for Always even when its save failed (the
	// mode is allow for this run). Nil tells no one.
	OnAnswered func(Prompt, Choice)
	// Label names a monitor in prompts ("" when unknown); nil = no labels.
	Label func(monitor int) string
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Logger receives permission lines; nil discards.
	Logger *slog.Logger
}

// Gate is one preset's screen permission. See the package doc.
type Gate struct {
	cfg Config
	log *slog.Logger
	now func() time.Time

	mu        sync.Mutex
	mode      Mode
	eachTurn  bool
	open      *Prompt // the prompt shown, not answered yet
	nextID    uint64
	onceUntil time.Time // "Allow once": a grant for onceMon until then
	onceMon   int
	denyUntil time.Time // "Deny": requests denied until then
}

// New returns a gate in the mode of cfg.Permissions.
func New(cfg Config) *Gate {
	g := &Gate{cfg: cfg, log: cfg.Logger, now: cfg.Now,
		mode: ParseMode(cfg.Permissions.Screen), eachTurn: cfg.Permissions.ScreenshotEachTurn}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	if g.now == nil {
		g.now = time.Now
	}
	return g
}

// Mode returns the current mode.
func (g *Gate) Mode() Mode {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.mode
}

// EachTurn reports whether per-turn capture is on and not denied.
func (g *Gate) EachTurn() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.eachTurn && g.mode != ModeDeny
}

// Open returns the prompt waiting for an answer, if any.
func (g *Gate) Open() (Prompt, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open == nil {
		return Prompt{}, false
	}
	return *g.open, true
}

// Request asks to capture monitor once (the look tool). It returns a grant,
// or ErrDenied, or ErrPending after opening a prompt (see the package doc).
func (g *Gate) Request(monitor int) (*Grant, error) {
	var opened *Prompt
	var closed uint64
	grant, err := func() (*Grant, error) {
		g.mu.Lock()
		defer g.mu.Unlock()
		now := g.now()
		switch g.mode {
		case ModeAllow:
			return newGrant(monitor), nil
		case ModeDeny:
			return nil, ErrDenied
		}
		if !g.onceUntil.IsZero() && g.onceMon == monitor && !now.After(g.onceUntil) {
			g.onceUntil = time.Time{}
			return newGrant(monitor), nil
		}
		if !g.denyUntil.IsZero() {
			until := g.denyUntil
			g.denyUntil = time.Time{}
			if !now.After(until) {
				return nil, ErrDenied
			}
		}
		if g.open != nil && g.open.Monitor == monitor {
			return nil, ErrPending
		}
		if g.open != nil {
			closed = g.open.ID
		}
		g.nextID++
		p := Prompt{ID: g.nextID, Preset: g.cfg.Preset, Backend: g.cfg.Backend, Monitor: monitor}
		g.open = &p
		opened = &p
		return nil, ErrPending
	}()
	if closed != 0 && g.cfg.OnPromptClosed != nil {
		g.cfg.OnPromptClosed(closed)
	}
	if opened != nil {
		if g.cfg.Label != nil {
			opened.Label = g.cfg.Label(monitor)
		}
		g.log.Info("permission.asked", "monitor", monitor, "prompt", opened.ID)
		if g.cfg.OnPrompt != nil {
			g.cfg.OnPrompt(*opened)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("screen capture of monitor %d: %w", monitor, err)
	}
	g.log.Info("permission.granted", "monitor", monitor)
	return grant, nil
}

// RequestEachTurn asks for the per-turn screenshot of monitor: granted
// while "send a screenshot with each turn" is on and the mode is not deny;
// ErrOff or ErrDenied otherwise. It never prompts.
func (g *Gate) RequestEachTurn(monitor int) (*Grant, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.mode == ModeDeny:
		return nil, fmt.Errorf("per-turn capture of monitor %d: %w", monitor, ErrDenied)
	case !g.eachTurn:
		return nil, fmt.Errorf("per-turn capture of monitor %d: %w", monitor, ErrOff)
	}
	return newGrant(monitor), nil
}

// Answer applies the user's answer to the open prompt id. ErrNoPrompt when
// that prompt is not open (answered already, replaced or withdrawn).
func (g *Gate) Answer(id uint64, c Choice) error {
	g.mu.Lock()
	if g.open == nil || g.open.ID != id {
		g.mu.Unlock()
		return fmt.Errorf("answer %s to prompt %d: %w", c, id, ErrNoPrompt)
	}
	p := *g.open
	now := g.now()
	g.open = nil
	g.onceUntil, g.denyUntil = time.Time{}, time.Time{}
	switch c {
	case Once:
		g.onceUntil, g.onceMon = now.Add(OnceFor), p.Monitor
	case Always:
		g.mode = ModeAllow
	case Deny:
		g.denyUntil = now.Add(OnceFor)
	default:
		g.mu.Unlock()
		return fmt.Errorf("answer %s to prompt %d: unknown choice", c, id)
	}
	g.mu.Unlock()
	g.log.Info("permission.answered", "prompt", id, "monitor", p.Monitor, "choice", c.String())
	var err error
	if c == Always && g.cfg.Save != nil {
		if serr := g.cfg.Save(ModeAllow); serr != nil {
			g.log.Warn("permission.save_failed", "err", serr.Error())
			err = fmt.Errorf("answer always to prompt %d: save: %w", id, serr)
		}
	}
	if g.cfg.OnAnswered != nil {
		g.cfg.OnAnswered(p, c)
	}
	return err
}

// SetPermissions applies the preset's settings after a change. A new mode
// forgets remembered answers and withdraws an open prompt.
func (g *Gate) SetPermissions(p settings.Permissions) {
	var closed uint64
	g.mu.Lock()
	mode := ParseMode(p.Screen)
	g.eachTurn = p.ScreenshotEachTurn
	if mode != g.mode {
		g.mode = mode
		g.onceUntil, g.denyUntil = time.Time{}, time.Time{}
		if g.open != nil {
			closed = g.open.ID
			g.open = nil
		}
	}
	g.mu.Unlock()
	if closed != 0 && g.cfg.OnPromptClosed != nil {
		g.cfg.OnPromptClosed(closed)
	}
}
