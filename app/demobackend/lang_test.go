package demobackend_test

import (
	"strings"
	"testing"
	"time"

	"yui/app/demobackend"
	"yui/app/i18n"
)

// spoken is the text of every speech frame in lines.
func spoken(lines []string) []string {
	var out []string
	for _, l := range lines {
		if _, rest, ok := strings.Cut(l, " speech "); ok {
			_, text, _ := strings.Cut(rest, "\"")
			out = append(out, strings.TrimSuffix(text, "\""))
		}
	}
	return out
}

// She answers in the language the user writes in, keeps it for a turn
// without text, and starts in Config.Language before the user has written.
func TestSheAnswersInTheUsersLanguage(t *testing.T) {
	run(t, envOpt{cfg: demobackend.Config{Language: i18n.Korean}}, func(e *env) {
		e.take()
		e.turnWith("100", "", "trigger: proactive \"good morning\"")
		e.after(10 * time.Second)
		if got := spoken(e.take()); len(got) != 1 || got[0] != "좋은 아침이에요! 필요하면 언제든 불러 주세요." {
			t.Fatalf("before the user wrote: %q, want the Korean greeting", got)
		}
		e.turn("101", "こんにちは！")
		e.after(10 * time.Second)
		if got := spoken(e.take()); len(got) != 3 || got[0] != "やっほー！" {
			t.Fatalf("a Japanese hello: %q", got)
		}
		e.turnWith("102", "", "trigger: proactive \"check-in\" (user idle 10min)")
		e.after(10 * time.Second)
		if got := spoken(e.take()); len(got) != 1 || got[0] != "ちょっと様子を見に来たよ。まだがんばってる？" {
			t.Fatalf("a turn without text after Japanese: %q", got)
		}
		e.turn("103", "你今天怎么样？")
		e.after(10 * time.Second)
		got := spoken(e.take())
		if len(got) == 0 || strings.ContainsFunc(got[0], func(r rune) bool { return r >= 'A' && r <= 'z' }) {
			t.Fatalf("a Chinese message got %q", got)
		}
		e.turn("104", "Hello!")
		e.after(10 * time.Second)
		if got := spoken(e.take()); len(got) != 3 || got[0] != "Hi there!" {
			t.Fatalf("back to English: %q", got)
		}
	})
}
