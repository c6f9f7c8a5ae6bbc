package clientctx

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestCutHeadTail(t *testing.T) {
	cases := []struct {
		in   string
		n    int
		head string
		tail string
	}{
		{"short", 50, "short", "short"},
		{"abcdef", 6, "abcdef", "abcdef"},
		{"abcdefg", 6, "abcde…", "…cdefg"},
		{"はいはいはいはい", 4, "はいは…", "…いはい"},
		{"ab", 0, "", ""},
		{"abc", 1, "…", "…"},
		{"", 5, "", ""},
		{"👍👍👍", 2, "👍…", "…👍"},
	}
	for _, tc := range cases {
		if got := CutHead(tc.in, tc.n); got != tc.head {
			t.Errorf("CutHead(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.head)
		}
		if got := CutTail(tc.in, tc.n); got != tc.tail {
			t.Errorf("CutTail(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.tail)
		}
	}
}

func TestNewInterruptedCutsToFiftyCodePoints(t *testing.T) {
	at := time.Now()
	spoken := strings.Repeat("あ", 60) + "END"
	unspoken := "START" + strings.Repeat("い", 60)
	r := NewInterrupted("user.text_submitted", at, spoken, unspoken)
	if n := utf8.RuneCountInString(r.Spoken); n != MaxQuote {
		t.Fatalf("spoken %d code points", n)
	}
	if n := utf8.RuneCountInString(r.Unspoken); n != MaxQuote {
		t.Fatalf("unspoken %d code points", n)
	}
	if !strings.HasSuffix(r.Spoken, "END") || !strings.HasPrefix(r.Spoken, "…") {
		t.Fatalf("spoken should keep what was heard last: %q", r.Spoken)
	}
	if !strings.HasPrefix(r.Unspoken, "START") || !strings.HasSuffix(r.Unspoken, "…") {
		t.Fatalf("unspoken should keep what was owed first: %q", r.Unspoken)
	}
	if r.Outcome != Interrupted || r.Trigger != "user.text_submitted" || !r.At.Equal(at) || r.TurnID != "" {
		t.Fatalf("record %+v", r)
	}
}

func TestNewInterruptedSanitisesBeforeCutting(t *testing.T) {
	r := NewInterrupted("t", time.Now(), "a\n\n   b", "  c\td  ")
	if r.Spoken != "a b" || r.Unspoken != "c d" {
		t.Fatalf("got %q / %q", r.Spoken, r.Unspoken)
	}
}

func TestNewFailed(t *testing.T) {
	at := time.Now()
	r := NewFailed("user.voice", at, "1789365854947")
	if r.Outcome != Failed || r.TurnID != "1789365854947" || r.Spoken != "" || r.Valid() != nil {
		t.Fatalf("record %+v", r)
	}
}

func TestPreviousLine(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		r    Record
		want string
	}{
		{"failed", NewFailed("user.text_submitted", now.Add(-5*time.Minute), "9"), "previous: user.text_submitted failed (5min ago)"},
		{"failed ignores quotes", Record{Trigger: "t", Outcome: Failed, At: now, Spoken: "x"}, "previous: t failed (0min ago)"},
		{"interrupted both", NewInterrupted("user.text_submitted", now.Add(-2*time.Minute), "All green.", "Want it?"),
			`previous: user.text_submitted interrupted (2min ago), spoken: "All green." unspoken: "Want it?"`},
		{"interrupted nothing heard", NewInterrupted("proactive", now, "", "Hello there."), `previous: proactive interrupted (0min ago), unspoken: "Hello there."`},
		{"interrupted nothing owed", NewInterrupted("proactive", now, "Said.", ""), `previous: proactive interrupted (0min ago), spoken: "Said."`},
		{"interrupted bare", NewInterrupted("x", now, "", ""), "previous: x interrupted (0min ago)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.r
			var got string
			for _, l := range (Context{Now: now, Previous: &r}).Lines() {
				if strings.HasPrefix(l, "previous:") {
					got = l
				}
			}
			if got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
