package demobackend

import (
	"log/slog"
	"time"

	"yui/app/i18n"
)

// DefaultDelegationDelay is how long a delegated demo task runs.
const DefaultDelegationDelay = 20 * time.Second

// DefaultAddr is the address `yui demo-backend` listens on.
const DefaultAddr = "127.0.0.1:8646"

// MaxTurnBytes is the largest turn frame the demo accepts, stated in its
// ready frame; stating it also says the demo accepts images on a turn.
const MaxTurnBytes = 4 << 20

// Source is the render source name the demo backend uses.
const Source = "yui-demo"

// Config configures a Backend. Only Key matters for a real run; the rest
// have defaults.
type Config struct {
	// Key is the chat API key clients must send in hello.
	Key string
	// Logger receives the backend's and pushserver's log lines; nil discards.
	Logger *slog.Logger
	// Now is the wall clock for delegation timestamps; nil uses time.Now.
	Now func() time.Time
	// DelegationDelay is how long a delegated task runs before it reports;
	// 0 uses DefaultDelegationDelay. It is not scaled by TimeScale.
	DelegationDelay time.Duration
	// TimeScale multiplies every scripted delay of a turn (thinking, speech
	// pacing, fake tools); 0 means 1. Use a small value for quick runs.
	TimeScale float64
	// Language is what she speaks in a chat until the user has written
	// (lang.go); "" is English. After that she answers in the user's.
	Language i18n.Lang
}

func (c Config) withDefaults() Config {
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.DelegationDelay <= 0 {
		c.DelegationDelay = DefaultDelegationDelay
	}
	if c.TimeScale <= 0 {
		c.TimeScale = 1
	}
	if c.Language == "" {
		c.Language = i18n.English
	}
	return c
}

// scaled returns d multiplied by the time scale.
func (c Config) scaled(d time.Duration) time.Duration {
	return time.Duration(float64(d) * c.TimeScale)
}
