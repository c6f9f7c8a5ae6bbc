package pet

import (
	"log/slog"

	"yui/app/browse"
	"yui/app/clientctx"
	"yui/app/permission"
	"yui/app/relation"
	"yui/app/talk"
	"yui/transport"
)

// Among is what every character's tools among friends reach: the
// standings (rate_relation), the other characters (address_character)
// and the web (browser). Every pet declares the three tools on every wire
// (client-notes §1, docs/decisions.md); a zero Among still declares them,
// with standings kept in memory, no one to address and no site allowed to
// open.
type Among struct {
	// Relations keeps the standings; nil keeps this character's in memory.
	Relations *relation.Store
	// Cast resolves the other characters' names for rate_relation.
	Cast relation.Cast
	// Talk starts the addressed character's turn (the core's talk room).
	Talk talk.Addresser
	// LocalPages reads the character's "may read pages on this computer
	// and local network" switch; nil is off.
	LocalPages func() bool
	// Sites are the sites the browser may open without asking; SaveSite
	// persists one the user allowed always (nil: in memory).
	Sites    []string
	SaveSite func(site string) error
	// Fetch overrides the browser's resolver, dial and proxy (tests);
	// AllowLocal is always LocalPages.
	Fetch browse.FetchConfig
	// Open shows a page in the default browser; nil is browse.OpenURL.
	Open func(u string) error
}

// amongTools builds rate_relation, address_character and browser for the
// character (ch.Session is set before any call runs).
func amongTools(cfg Config, ch *Character, lg *slog.Logger) []transport.Tool {
	a := cfg.Among
	store := a.Relations
	if store == nil {
		store, _ = relation.Open(relation.Config{Log: lg})
	}
	ch.Sites = permission.NewSiteGate(permission.SiteConfig{
		Preset:         cfg.Preset.ID,
		Backend:        cfg.Backend,
		Sites:          a.Sites,
		Save:           a.SaveSite,
		OnPrompt:       cfg.OnPrompt,
		OnPromptClosed: cfg.OnPromptClosed,
		OnAnswered:     ch.siteAnswered,
		Now:            cfg.Now,
		Logger:         lg,
	})
	fc := a.Fetch
	fc.AllowLocal = a.LocalPages
	ch.Browser = browse.New(browse.Config{
		Fetcher: browse.NewFetcher(fc),
		Open:    a.Open,
		Sites:   ch.Sites,
		Pill:    func(turnID, state string) { ch.Session.ClientToolState(turnID, browse.Name, state) },
		Logger:  lg,
	})
	return []transport.Tool{
		&relation.Tool{Store: store, Self: cfg.Preset.ID, Cast: a.Cast},
		&talk.Tool{Self: cfg.Preset.ID, To: a.Talk},
		ch.Browser,
	}
}

// siteAnswered starts the follow-up turn of a browser open prompt, as
// answered does for the screen's.
func (ch *Character) siteAnswered(p permission.Prompt, c permission.Choice) {
	ch.Session.StartTurn("", clientctx.FromSitePermission(choiceAnswer(c), p.Site))
}

// choiceAnswer is the trigger's word for a prompt's answer.
func choiceAnswer(c permission.Choice) string {
	switch c {
	case permission.Once:
		return clientctx.AllowedOnce
	case permission.Always:
		return clientctx.AllowedAlways
	}
	return clientctx.Denied
}
