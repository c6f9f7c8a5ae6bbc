package permission

import (
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// SitePromptBase is the first id a SiteGate gives its prompts, so one
// character's screen and site prompts never share an id (IsSitePrompt);
// an MCP tool's prompts start far above, at 2^48 (app/mcp).
const SitePromptBase uint64 = 1 << 40

// IsSitePrompt reports whether a prompt id is a SiteGate's: from
// SitePromptBase up to (not including) 2^44.
func IsSitePrompt(id uint64) bool { return id >= SitePromptBase && id < SitePromptBase<<4 }

// SiteConfig configures a SiteGate.
type SiteConfig struct {
	// Preset and Backend name the character and her backend in prompts.
	Preset, Backend string
	// Sites are the sites "always for this site" allowed before.
	Sites []string
	// Save persists a site the user allowed always; nil keeps it in
	// memory.
	Save func(site string) error
	// OnPrompt, OnPromptClosed and OnAnswered are the screen gate's (Config).
	OnPrompt       func(Prompt)
	OnPromptClosed func(id uint64)
	OnAnswered     func(Prompt, Choice)
	// Now is the clock; nil is time.Now.
	Now    func() time.Time
	Logger *slog.Logger
}

// SiteGate is one character's permission to open web sites in the user's
// browser (the browser tool's open): the screen gate's rules per site
// instead of per monitor. A site allowed always opens without asking;
// another asks (ErrPending at once, one prompt open at a time, a request
// for another site replacing it); Allow once grants the next open of that
// site within OnceFor; Deny refuses the next request within OnceFor
// without asking again; Always adds the site to the allowed ones and
// saves them. A SiteGate is safe for concurrent use; callbacks run
// without its lock.
type SiteGate struct {
	cfg SiteConfig
	log *slog.Logger
	now func() time.Time

	mu        sync.Mutex
	allowed   []string
	open      *Prompt
	nextID    uint64
	onceSite  string
	onceUntil time.Time
	denyUntil time.Time
}

// NewSiteGate returns a gate allowing cfg.Sites.
func NewSiteGate(cfg SiteConfig) *SiteGate {
	g := &SiteGate{cfg: cfg, log: cfg.Logger, now: cfg.Now, allowed: slices.Clone(cfg.Sites), nextID: SitePromptBase - 1}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	if g.now == nil {
		g.now = time.Now
	}
	return g
}

// Request asks to open site: nil (allowed), ErrDenied, or ErrPending after
// opening a prompt.
func (g *SiteGate) Request(site string) error {
	var opened *Prompt
	var closed uint64
	err := func() error {
		g.mu.Lock()
		defer g.mu.Unlock()
		now := g.now()
		if slices.Contains(g.allowed, site) {
			return nil
		}
		if g.onceSite == site && !now.After(g.onceUntil) {
			g.onceSite = ""
			return nil
		}
		if !g.denyUntil.IsZero() {
			until := g.denyUntil
			g.denyUntil = time.Time{}
			if !now.After(until) {
				return ErrDenied
			}
		}
		if g.open != nil && g.open.Site == site {
			return ErrPending
		}
		if g.open != nil {
			closed = g.open.ID
		}
		g.nextID++
		p := Prompt{ID: g.nextID, Preset: g.cfg.Preset, Backend: g.cfg.Backend, Site: site}
		g.open, opened = &p, &p
		return ErrPending
	}()
	if closed != 0 && g.cfg.OnPromptClosed != nil {
		g.cfg.OnPromptClosed(closed)
	}
	if opened != nil {
		g.log.Info("permission.asked", "site", site, "prompt", opened.ID)
		if g.cfg.OnPrompt != nil {
			g.cfg.OnPrompt(*opened)
		}
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", site, err)
	}
	return nil
}

// Answer applies the user's answer to the open prompt id (ErrNoPrompt when
// it is not the one open).
func (g *SiteGate) Answer(id uint64, c Choice) error {
	g.mu.Lock()
	if g.open == nil || g.open.ID != id || c < Once || c > Deny {
		g.mu.Unlock()
		return fmt.Errorf("answer %s to prompt %d: %w", c, id, ErrNoPrompt)
	}
	p := *g.open
	g.open = nil
	g.onceSite, g.denyUntil = "", time.Time{}
	switch c {
	case Once:
		g.onceSite, g.onceUntil = p.Site, g.now().Add(OnceFor)
	case Always:
		if !slices.Contains(g.allowed, p.Site) {
			g.allowed = append(g.allowed, p.Site)
		}
	case Deny:
		g.denyUntil = g.now().Add(OnceFor)
	}
	g.mu.Unlock()
	g.log.Info("permission.answered", "prompt", id, "site", p.Site, "choice", c.String())
	var err error
	if c == Always && g.cfg.Save != nil {
		if serr := g.cfg.Save(p.Site); serr != nil {
			g.log.Warn("permission.save_failed", "err", serr.Error())
			err = fmt.Errorf("answer always to prompt %d: save: %w", id, serr)
		}
	}
	if g.cfg.OnAnswered != nil {
		g.cfg.OnAnswered(p, c)
	}
	return err
}

// SetSites replaces the sites allowed always (a settings change).
func (g *SiteGate) SetSites(sites []string) {
	g.mu.Lock()
	g.allowed = slices.Clone(sites)
	g.mu.Unlock()
}
