package permission

import (
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

func TestSiteGateAsksOnceAlwaysDeny(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var prompts []Prompt
		var saved []string
		var answered []Choice
		g := NewSiteGate(SiteConfig{Preset: "p-00000001", Backend: "demo", Sites: []string{"known.example"},
			Save:       func(s string) error { saved = append(saved, s); return nil },
			OnPrompt:   func(p Prompt) { prompts = append(prompts, p) },
			OnAnswered: func(_ Prompt, c Choice) { answered = append(answered, c) }})
		if err := g.Request("known.example"); err != nil {
			t.Fatalf("an allowed site: %v", err)
		}
		if err := g.Request("news.example"); !errors.Is(err, ErrPending) || len(prompts) != 1 {
			t.Fatalf("a new site: %v, %d prompts", err, len(prompts))
		}
		p := prompts[0]
		if !IsSitePrompt(p.ID) || p.Site != "news.example" || p.Text() != "demo asks to open news.example in your browser: allow once, always for this site, or deny?" {
			t.Fatalf("prompt %+v %q", p, p.Text())
		}
		if err := g.Request("news.example"); !errors.Is(err, ErrPending) || len(prompts) != 1 {
			t.Fatal("asking again opened a second prompt")
		}
		if err := g.Answer(p.ID, Once); err != nil {
			t.Fatal(err)
		}
		if g.Request("news.example") != nil {
			t.Fatal("allow once did not grant the next open")
		}
		if err := g.Request("news.example"); !errors.Is(err, ErrPending) {
			t.Fatalf("allow once granted twice: %v", err)
		}
		if err := g.Answer(prompts[1].ID, Deny); err != nil {
			t.Fatal(err)
		}
		if err := g.Request("news.example"); !errors.Is(err, ErrDenied) || len(prompts) != 2 {
			t.Fatalf("after deny: %v", err)
		}
		time.Sleep(OnceFor + time.Second)
		g.Request("news.example")
		if err := g.Answer(prompts[2].ID, Always); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if err := g.Request("news.example"); err != nil {
				t.Fatalf("open %d after always: %v", i+1, err)
			}
		}
		if len(saved) != 1 || saved[0] != "news.example" {
			t.Fatalf("always: saved %v", saved)
		}
		if err := g.Answer(prompts[2].ID, Once); !errors.Is(err, ErrNoPrompt) {
			t.Fatalf("a stale answer: %v", err)
		}
		if len(answered) != 3 {
			t.Fatalf("answered %v", answered)
		}
	})
}
