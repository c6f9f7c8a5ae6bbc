package sentence

import (
	"slices"
	"testing"
)

func TestReduceLinks(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"none", "plain text", "plain text"},
		{"one link", "See [the docs](https://x.y/docs).", "See the docs."},
		{"two links", "[a](u1) and [b](u2)", "a and b"},
		{"image alt", "![a cat](cat.png) sleeps", "a cat sleeps"},
		{"title dropped", `[docs](https://x.y "Docs") ok`, "docs ok"},
		{"parens in url", "[wiki](https://w/Go_(lang)) end", "wiki end"},
		{"nested brackets in label", "[see [1]](u) ok", "see [1] ok"},
		{"escaped bracket in label", `[a\]b](u)`, `a\]b`},
		{"empty label not a link", "[](u) x", "[](u) x"},
		{"no parens not a link", "[a] (u)", "[a] (u)"},
		{"unclosed url", "[a](u", "[a](u"},
		{"newline breaks link", "[a\nb](u)", "[a\nb](u)"},
		{"bare url stays", "https://x.y/a", "https://x.y/a"},
		{"autolink stays", "<https://x.y>", "<https://x.y>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReduceLinks(tc.in); got != tc.want {
				t.Fatalf("ReduceLinks(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestLinksStructured(t *testing.T) {
	in := "Go [here](https://a.b/c) or ![pic](<p.png>) now"
	got := Links(in)
	want := []Link{
		{Label: "here", URL: "https://a.b/c", Start: 3, End: 24},
		{Label: "pic", URL: "p.png", Image: true, Start: 28, End: 43},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
	for _, l := range got {
		if in[l.Start] != '[' && in[l.Start] != '!' || in[l.End-1] != ')' {
			t.Fatalf("span %d..%d does not cover the link", l.Start, l.End)
		}
	}
}

func TestBubbleKeepsMarkdownSpeechReduces(t *testing.T) {
	in := "Done 🎉 — see [the report](https://r/1)."
	if got := BubbleText(in); got != "Done — see [the report](https://r/1)." {
		t.Fatalf("BubbleText = %q", got)
	}
	if got := SpeechText(in); got != "Done — see the report." {
		t.Fatalf("SpeechText = %q", got)
	}
}

func TestSpeechTextCollapsesWhitespace(t *testing.T) {
	if got := SpeechText("  a \t b\n c  "); got != "a b c" {
		t.Fatalf("got %q", got)
	}
	if got := SpeechText("👍"); got != "" {
		t.Fatalf("emoji-only speech = %q, want empty", got)
	}
}
