package among

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"yui/app/settings"
	"yui/app/talk"
)

// Host is what the room asks of the core.
type Host interface {
	// Find is the preset id of the enabled, shown character named name
	// (case-insensitively), or false.
	Find(name string) (id string, ok bool)
	// Name is a character's display name.
	Name(id string) string
	// StartTurn starts a turn on the character id from the character
	// named from, with text as the utterance; false when she has no
	// running session.
	StartTurn(id, from, text string) bool
	// Said shows the exchange in both characters' message windows.
	Said(fromID, toID, text string)
	// Talk is the manners' settings now.
	Talk() settings.Talk
}

// Config are the room's parts.
type Config struct {
	Host   Host
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Room keeps the chain's manners; see the package doc.
type Room struct {
	cfg Config
	log *slog.Logger

	mu     sync.Mutex
	hops   int         // hops since the user last spoke
	ended  string      // why the chain ended ("" while it may go on)
	starts []time.Time // the hops of the last minute
}

var _ talk.Addresser = (*Room)(nil)

// New returns the room.
func New(cfg Config) *Room {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	r := &Room{cfg: cfg, log: cfg.Logger}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	return r
}

// Address starts the addressed character's turn (talk.Addresser).
func (r *Room) Address(from, character, text string) error {
	h := r.cfg.Host
	to, ok := h.Find(character)
	if !ok || to == from {
		return talk.ErrUnknown
	}
	manners := h.Talk()
	hop, err := r.take(manners)
	if err != nil {
		return err
	}
	fromName := h.Name(from)
	if !h.StartTurn(to, fromName, text) {
		r.giveBack()
		return talk.ErrUnknown
	}
	h.Said(from, to, text)
	r.log.Info("talk.addressed", "from", from, "to", to, "hop", hop, "chars", len([]rune(text)))
	if hop == manners.Hops() {
		r.log.Warn("talk.chain_capped", "hops", hop, "from", from, "to", to)
	}
	return nil
}

// take counts one hop, or refuses it (busy).
func (r *Room) take(manners settings.Talk) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.cfg.Now()
	if r.ended != "" {
		r.log.Info("talk.busy", "reason", r.ended)
		return 0, fmt.Errorf("chain ended by %s: %w", r.ended, talk.ErrBusy)
	}
	if r.hops >= manners.Hops() {
		r.log.Info("talk.busy", "reason", "cap", "hops", r.hops)
		return 0, fmt.Errorf("chain at its cap of %d: %w", manners.Hops(), talk.ErrBusy)
	}
	keep := r.starts[:0]
	for _, at := range r.starts {
		if now.Sub(at) < time.Minute {
			keep = append(keep, at)
		}
	}
	r.starts = keep
	if len(r.starts) >= manners.Rate() {
		r.log.Warn("talk.rate_limited", "per_minute", manners.Rate())
		return 0, fmt.Errorf("%d hops in the last minute: %w", len(r.starts), talk.ErrBusy)
	}
	r.hops++
	r.starts = append(r.starts, now)
	return r.hops, nil
}

// giveBack undoes a hop whose turn could not start.
func (r *Room) giveBack() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hops > 0 {
		r.hops--
	}
	if n := len(r.starts); n > 0 {
		r.starts = r.starts[:n-1]
	}
}

// UserSpoke is the user saying something to any character: the chain
// starts afresh.
func (r *Room) UserSpoke() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.hops, r.ended = 0, ""
}

// End ends the chain (why: "stop", "mute", "new_conversation"): calls
// answer busy until the user speaks again.
func (r *Room) End(why string) {
	r.mu.Lock()
	was := r.hops
	r.hops, r.ended = 0, why
	r.mu.Unlock()
	if was > 0 {
		r.log.Info("talk.chain_ended", "reason", why, "hops", was)
	}
}
