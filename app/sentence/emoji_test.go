package sentence

import "testing"

func TestStripEmoji(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"no emoji untouched", "Hello,  world!", "Hello,  world!"},
		{"trailing emoji", "All green 👍", "All green"},
		{"inner emoji collapses spaces", "Great 😀 job", "Great job"},
		{"adjacent emoji", "Hi😀😀!", "Hi!"},
		{"zwj family", "Family 👨‍👩‍👧 time", "Family time"},
		{"skin tone", "Wave 👋🏽 hi", "Wave hi"},
		{"flag", "Go 🇯🇵 team", "Go team"},
		{"heart with vs16", "Love ❤️ it", "Love it"},
		{"sparkles and star", "✨ New ⭐", "New"},
		{"keycap keeps digit", "Press 1️⃣ now", "Press 1 now"},
		{"tag sequence flag", "🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F England", "England"},
		{"copyright stays", "© 2026 Yui™ ®", "© 2026 Yui™ ®"},
		{"arrows stay", "a → b", "a → b"},
		{"cjk stays", "はい😊、了解", "はい、了解"},
		{"only emoji", "😀🎉", ""},
		{"multi line tidy", "Hi 😀\n🎉 there", "Hi\nthere"},
		{"text emoticon stays", "ok :) ", "ok :) "},
		{"lone zwj kept", "a\u200db", "a\u200db"},
		{"invalid bytes kept", "a\xff😀b", "a\xffb"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := StripEmoji(tc.in); got != tc.want {
				t.Fatalf("StripEmoji(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
