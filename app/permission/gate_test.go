package permission_test

import (
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/permission"
	"yui/app/settings"
)

// recorder collects the gate's callbacks.
type recorder struct {
	mu     sync.Mutex
	opened []permission.Prompt
	closed []uint64
	saved  []permission.Mode
	fail   error
}

func (r *recorder) config(screen string, eachTurn bool) permission.Config {
	return permission.Config{
		Preset: "p-1", Backend: "http://backend.test:8646",
		Permissions: settings.Permissions{Screen: screen, ScreenshotEachTurn: eachTurn},
		Save: func(m permission.Mode) error {
			r.mu.Lock()
			defer r.mu.Unlock()
			r.saved = append(r.saved, m)
			return r.fail
		},
		OnPrompt:       func(p permission.Prompt) { r.mu.Lock(); r.opened = append(r.opened, p); r.mu.Unlock() },
		OnPromptClosed: func(id uint64) { r.mu.Lock(); r.closed = append(r.closed, id); r.mu.Unlock() },
		Label:          func(m int) string { return map[int]string{0: "DP-1", 1: "HDMI-1"}[m] },
	}
}

func mustGrant(t *testing.T, g *permission.Gate, monitor int) {
	t.Helper()
	gr, err := g.Request(monitor)
	if err != nil {
		t.Fatalf("request %d: %v", monitor, err)
	}
	if m, err := gr.Use(); err != nil || m != monitor {
		t.Fatalf("use: %d %v", m, err)
	}
}

func mustFail(t *testing.T, g *permission.Gate, monitor int, want error) {
	t.Helper()
	gr, err := g.Request(monitor)
	if !errors.Is(err, want) || gr != nil {
		t.Fatalf("request %d: %v %v, want %v", monitor, gr, err, want)
	}
}

func TestAskOpensOnePromptAndAnswersPending(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 0, permission.ErrPending)
		mustFail(t, g, 0, permission.ErrPending)
		if len(r.opened) != 1 {
			t.Fatalf("prompts %+v", r.opened)
		}
		p := r.opened[0]
		if p.Monitor != 0 || p.Label != "DP-1" || p.Backend != "http://backend.test:8646" || p.Preset != "p-1" {
			t.Fatalf("prompt %+v", p)
		}
		if got, _ := g.Open(); got != p {
			t.Fatalf("open %+v", got)
		}
		// Another monitor replaces the prompt.
		mustFail(t, g, 1, permission.ErrPending)
		if len(r.opened) != 2 || len(r.closed) != 1 || r.closed[0] != p.ID || r.opened[1].Label != "HDMI-1" {
			t.Fatalf("opened %+v closed %v", r.opened, r.closed)
		}
		if err := g.Answer(p.ID, permission.Once); !errors.Is(err, permission.ErrNoPrompt) {
			t.Fatalf("answer to a replaced prompt: %v", err)
		}
	})
}

func TestOnceGrantsNextRequestWithinTwoMinutes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 0, permission.ErrPending)
		time.Sleep(10 * time.Minute) // the user takes their time: the window counts from the answer
		if err := g.Answer(r.opened[0].ID, permission.Once); err != nil {
			t.Fatal(err)
		}
		if _, ok := g.Open(); ok {
			t.Fatal("prompt still open after the answer")
		}
		time.Sleep(permission.OnceFor - time.Second)
		mustFail(t, g, 1, permission.ErrPending) // once covers the monitor asked for only
		mustGrant(t, g, 0)
		mustFail(t, g, 0, permission.ErrPending) // used up
		if len(r.saved) != 0 {
			t.Fatalf("once saved %v", r.saved)
		}
	})
}

func TestOnceExpiresAfterTwoMinutes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 0, permission.ErrPending)
		if err := g.Answer(r.opened[0].ID, permission.Once); err != nil {
			t.Fatal(err)
		}
		time.Sleep(permission.OnceFor)
		mustGrant(t, g, 0) // exactly at the limit: still within
		mustFail(t, g, 0, permission.ErrPending)
		if err := g.Answer(r.opened[1].ID, permission.Once); err != nil {
			t.Fatal(err)
		}
		time.Sleep(permission.OnceFor + time.Millisecond)
		mustFail(t, g, 0, permission.ErrPending)
		if len(r.opened) != 3 {
			t.Fatalf("prompts %d", len(r.opened))
		}
	})
}

func TestAlwaysPersistsAndAllows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 1, permission.ErrPending)
		if err := g.Answer(r.opened[0].ID, permission.Always); err != nil {
			t.Fatal(err)
		}
		if len(r.saved) != 1 || r.saved[0] != permission.ModeAllow || g.Mode() != permission.ModeAllow {
			t.Fatalf("saved %v mode %s", r.saved, g.Mode())
		}
		for range 3 {
			time.Sleep(time.Hour)
			mustGrant(t, g, 0)
			mustGrant(t, g, 1)
		}
		// The core re-applies the saved settings: nothing changes.
		g.SetPermissions(settings.Permissions{Screen: "allow"})
		mustGrant(t, g, 0)
		if len(r.opened) != 1 {
			t.Fatalf("prompts after always: %d", len(r.opened))
		}
	})
}

func TestAlwaysSaveFailureReported(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{fail: errors.New("disk full")}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 0, permission.ErrPending)
		if err := g.Answer(r.opened[0].ID, permission.Always); err == nil {
			t.Fatal("a failed save was not reported")
		}
		mustGrant(t, g, 0) // allowed for this run anyway
	})
}

func TestDenyFromPromptDeniesTheRetryThenAsksAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 0, permission.ErrPending)
		if err := g.Answer(r.opened[0].ID, permission.Deny); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute)
		mustFail(t, g, 0, permission.ErrDenied)
		mustFail(t, g, 0, permission.ErrPending) // the deny answered one request
		if g.Mode() != permission.ModeAsk || len(r.saved) != 0 {
			t.Fatalf("mode %s saved %v", g.Mode(), r.saved)
		}
		if err := g.Answer(r.opened[1].ID, permission.Deny); err != nil {
			t.Fatal(err)
		}
		time.Sleep(permission.OnceFor + time.Second)
		mustFail(t, g, 0, permission.ErrPending) // stale deny: ask again
		if len(r.opened) != 3 {
			t.Fatalf("prompts %d", len(r.opened))
		}
	})
}

func TestDenyModeAndAllowMode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("deny", true))
		mustFail(t, g, 0, permission.ErrDenied)
		if _, err := g.RequestEachTurn(0); !errors.Is(err, permission.ErrDenied) {
			t.Fatalf("each turn in deny mode: %v", err)
		}
		if g.EachTurn() {
			t.Fatal("each turn on in deny mode")
		}
		g.SetPermissions(settings.Permissions{Screen: "allow"})
		mustGrant(t, g, 2)
		if len(r.opened) != 0 {
			t.Fatalf("prompts %+v", r.opened)
		}
		if permission.ParseMode("bogus") != permission.ModeAsk {
			t.Fatal("unknown mode is not ask")
		}
	})
}

func TestModeChangeWithdrawsPromptAndForgetsOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		mustFail(t, g, 0, permission.ErrPending)
		g.SetPermissions(settings.Permissions{Screen: "deny"})
		if len(r.closed) != 1 || r.closed[0] != r.opened[0].ID {
			t.Fatalf("closed %v", r.closed)
		}
		if err := g.Answer(r.opened[0].ID, permission.Once); !errors.Is(err, permission.ErrNoPrompt) {
			t.Fatalf("answer to a withdrawn prompt: %v", err)
		}
		g.SetPermissions(settings.Permissions{Screen: "ask"})
		mustFail(t, g, 0, permission.ErrPending)
		if err := g.Answer(r.opened[1].ID, permission.Once); err != nil {
			t.Fatal(err)
		}
		g.SetPermissions(settings.Permissions{Screen: "deny"})
		g.SetPermissions(settings.Permissions{Screen: "ask"})
		mustFail(t, g, 0, permission.ErrPending) // the once was forgotten
	})
}

func TestEachTurnNeedsTheSettingAndNeverPrompts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := &recorder{}
		g := permission.New(r.config("ask", false))
		if _, err := g.RequestEachTurn(0); !errors.Is(err, permission.ErrOff) {
			t.Fatalf("off: %v", err)
		}
		g.SetPermissions(settings.Permissions{Screen: "ask", ScreenshotEachTurn: true})
		gr, err := g.RequestEachTurn(1)
		if err != nil || gr.Monitor() != 1 {
			t.Fatalf("on: %v %v", gr, err)
		}
		if len(r.opened) != 0 {
			t.Fatal("per-turn capture prompted")
		}
	})
}

func TestGrantIsSingleUse(t *testing.T) {
	var zero permission.Grant
	if _, err := zero.Use(); !errors.Is(err, permission.ErrNoGrant) {
		t.Fatalf("zero grant: %v", err)
	}
	var nilGrant *permission.Grant
	if _, err := nilGrant.Use(); !errors.Is(err, permission.ErrNoGrant) {
		t.Fatalf("nil grant: %v", err)
	}
	g := permission.New(permission.Config{Permissions: settings.Permissions{Screen: "allow"}})
	gr, err := g.Request(3)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 8 {
		wg.Go(func() {
			if _, err := gr.Use(); err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if ok != 1 {
		t.Fatalf("%d uses succeeded", ok)
	}
}

func TestPromptText(t *testing.T) {
	p := permission.Prompt{Backend: "Hermes", Monitor: 1, Label: "HDMI-1"}
	if got := p.Text(); got != "Hermes asks to see your screen, monitor 1 (HDMI-1): allow once, always for this character, or deny?" {
		t.Fatal(got)
	}
	for _, s := range []string{"once", "always", "deny"} {
		c, ok := permission.ParseChoice(s)
		if !ok || c.String() != s {
			t.Fatalf("%s: %v %v", s, c, ok)
		}
	}
	if _, ok := permission.ParseChoice("maybe"); ok {
		t.Fatal("maybe parsed")
	}
}

// Every applied answer is told once, with the prompt it answered, after
// the gate applied it (a callback that requests again sees the answer);
// a stale answer tells nothing.
func TestAnswerIsToldAfterItApplies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, c := range []permission.Choice{permission.Once, permission.Always, permission.Deny} {
			r := &recorder{fail: errors.New("disk full")}
			cfg := r.config("ask", false)
			var g *permission.Gate
			var told []permission.Prompt
			var retry error
			cfg.OnAnswered = func(p permission.Prompt, got permission.Choice) {
				if got != c {
					t.Errorf("told %v, want %v", got, c)
				}
				told = append(told, p)
				_, retry = g.Request(p.Monitor)
			}
			g = permission.New(cfg)
			mustFail(t, g, 1, permission.ErrPending)
			p, _ := g.Open()
			err := g.Answer(p.ID, c)
			if (c == permission.Always) != (err != nil) {
				t.Fatalf("%v: answer err %v", c, err)
			}
			if len(told) != 1 || told[0].ID != p.ID || told[0].Monitor != 1 || told[0].Label != "HDMI-1" {
				t.Fatalf("%v: told %+v", c, told)
			}
			if wantDenied := c == permission.Deny; errors.Is(retry, permission.ErrDenied) != wantDenied || (!wantDenied && retry != nil) {
				t.Fatalf("%v: the retry inside the callback got %v", c, retry)
			}
			if err := g.Answer(p.ID, c); !errors.Is(err, permission.ErrNoPrompt) || len(told) != 1 {
				t.Fatalf("%v: stale answer %v, told %d", c, err, len(told))
			}
		}
	})
}
