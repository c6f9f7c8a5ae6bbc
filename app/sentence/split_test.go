package sentence

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"blank", "  \t ", nil},
		{"one sentence no terminator", "All green", []string{"All green"}},
		{"period then space", "All green. Want more?", []string{"All green.", "Want more?"}},
		{"terminator at end", "Done.", []string{"Done."}},
		{"exclamation", "Wow! Nice!", []string{"Wow!", "Nice!"}},
		{"question", "Ready? Go.", []string{"Ready?", "Go."}},
		{"run of terminators", "What?! Really...", []string{"What?!", "Really..."}},
		{"ascii ellipsis then space", "Well... maybe.", []string{"Well...", "maybe."}},
		{"unicode ellipsis", "Hmm… okay.", []string{"Hmm…", "okay."}},
		{"no split without whitespace", "Version 3.14 is out.", []string{"Version 3.14 is out."}},
		{"no split inside domain", "See example.com now.", []string{"See example.com now."}},
		{"joined lines stay one", "Line one.Line two.", []string{"Line one.Line two."}},
		{"newline always ends", "first line\nsecond line", []string{"first line", "second line"}},
		{"crlf", "a\r\nb", []string{"a", "b"}},
		{"blank lines dropped", "a\n\n\nb", []string{"a", "b"}},
		{"unicode line separator", "a\u2028b", []string{"a", "b"}},
		{"cjk at once", "はい。分かりました！本当？", []string{"はい。", "分かりました！", "本当？"}},
		{"cjk run stays together", "本当！？うん。", []string{"本当！？", "うん。"}},
		{"cjk then ascii text", "好的。OK then.", []string{"好的。", "OK then."}},
		{"mixed cjk and ascii terminators", "何？! ok", []string{"何？!", "ok"}},
		{"closing quote joins", `"Hi." she said.`, []string{`"Hi."`, "she said."}},
		{"closing paren joins", "(see above.) Next.", []string{"(see above.)", "Next."}},
		{"cjk closing bracket", "「はい。」次。", []string{"「はい。」", "次。"}},
		{"tab counts as whitespace", "One.\tTwo.", []string{"One.", "Two."}},
		{"nbsp counts as whitespace", "One.\u00a0Two.", []string{"One.", "Two."}},
		{"leading and trailing space trimmed", "  Hi there.  ", []string{"Hi there."}},
		{"silent token is text here", "[SILENT]", []string{"[SILENT]"}},
		{"link label not cut", "Read [part one. Then two](https://x.y/a?b!) now. Ok.", []string{"Read [part one. Then two](https://x.y/a?b!) now.", "Ok."}},
		{"image label not cut", "![A cat! Cute](c.png) yes", []string{"![A cat! Cute](c.png) yes"}},
		{"unclosed link is text", "Look [here. There", []string{"Look [here.", "There"}},
		{"lone bang", "! ! !", []string{"!", "!", "!"}},
		{"terminator followed by emoji", "Great! 😀 Next.", []string{"Great!", "😀 Next."}},
		{"only terminators", "...", []string{"..."}},
		{"invalid utf8 kept", "a\xff. b", []string{"a\xff.", "b"}},
		// Japanese
		{"ja long reply", "こんにちは！今日はいい天気ですね。散歩に行きませんか？", []string{"こんにちは！", "今日はいい天気ですね。", "散歩に行きませんか？"}},
		{"ja quote inside sentence", "彼は「行くよ。」と言った。", []string{"彼は「行くよ。」", "と言った。"}},
		{"ja ascii bang without space", "やった!次はどうする?", []string{"やった!", "次はどうする?"}},
		{"ja ellipsis then text", "えっと……分かった。", []string{"えっと……", "分かった。"}},
		{"ja ellipsis at end", "そうだね…", []string{"そうだね…"}},
		{"ja halfwidth stop", "はい｡次｡", []string{"はい｡", "次｡"}},
		{"ja fullwidth period", "完了．次へ", []string{"完了．", "次へ"}},
		{"ja double corner brackets", "『本当に？』うん。", []string{"『本当に？』", "うん。"}},
		{"ja ascii then opening bracket", "OK.「次」へ", []string{"OK.", "「次」へ"}},
		{"ja no punctuation stays whole", "ありがとうございます", []string{"ありがとうございます"}},
		{"ja katakana after period", "完了.テストを実行", []string{"完了.", "テストを実行"}},
		// Korean
		{"ko spaced", "안녕하세요. 오늘 뭐 할까요? 좋아요!", []string{"안녕하세요.", "오늘 뭐 할까요?", "좋아요!"}},
		{"ko unspaced", "알겠어요.바로 할게요!", []string{"알겠어요.", "바로 할게요!"}},
		{"ko ellipsis", "음... 잠깐만요.", []string{"음...", "잠깐만요."}},
		{"ko number stays", "버전 3.14 나왔어요.", []string{"버전 3.14 나왔어요."}},
		// Chinese
		{"zh three sentences", "你好！今天天气很好。我们去散步吧？", []string{"你好！", "今天天气很好。", "我们去散步吧？"}},
		{"zh quote", "他说：“我来了。”然后走了。", []string{"他说：“我来了。”", "然后走了。"}},
		{"zh midline ellipsis", "嗯⋯⋯好吧。", []string{"嗯⋯⋯", "好吧。"}},
		{"zh book title bracket", "读完《三体》了吗？读完了！", []string{"读完《三体》了吗？", "读完了！"}},
		{"zh fullwidth run", "真的吗？！太好了。", []string{"真的吗？！", "太好了。"}},
		{"zh lenticular closer", "【注意。】下一步", []string{"【注意。】", "下一步"}},
		{"zh tortoise closer", "〔完。〕好", []string{"〔完。〕", "好"}},
		{"zh decimal stays", "价格是3.5元。", []string{"价格是3.5元。"}},
		{"double exclamation mark", "すごい‼本当", []string{"すごい‼", "本当"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Split(tc.in)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Split(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
		})
	}
}

// stripSpace drops whitespace runes and keeps every other byte as it is
// (strings.Map would turn invalid bytes into U+FFFD).
func stripSpace(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			b.WriteString(s[i : i+w])
		}
		i += w
	}
	return b.String()
}

// joinStripped strips each sentence on its own, so invalid bytes at the edges
// of two sentences are not decoded together.
func joinStripped(parts []string) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(stripSpace(p))
	}
	return b.String()
}

func checkSplitInvariants(t *testing.T, in string) {
	t.Helper()
	got := Split(in)
	for _, s := range got {
		if s == "" || s != strings.TrimSpace(s) {
			t.Fatalf("Split(%q) produced untrimmed or empty segment %q", in, s)
		}
		if strings.ContainsAny(s, "\n\r\u2028\u2029") {
			t.Fatalf("Split(%q) segment %q holds a line break", in, s)
		}
	}
	if a, b := joinStripped(got), stripSpace(in); a != b {
		t.Fatalf("Split(%q) = %q loses text: %q vs %q", in, got, a, b)
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"", "Hi. There!", "はい。うん！", "a\nb", "[x. y](u) z.", "What?! ...", "\xff\xfe.", "「は。」", "![a](b)", "a. \u2028 b", "えっと……はい!次", "안녕.하세요", "他说：“好。”嗯"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkSplitInvariants(t, in)
		// The text helpers must never panic and keep valid input valid.
		for _, out := range []string{StripEmoji(in), ReduceLinks(in), SpeechText(in), BubbleText(in)} {
			if utf8.ValidString(in) && !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of valid input %q: %q", in, out)
			}
		}
		_ = IsSilent(in)
		for _, l := range Links(in) {
			if l.Start < 0 || l.End > len(in) || l.Start >= l.End {
				t.Fatalf("bad link span %+v in %q", l, in)
			}
		}
	})
}

func TestSplitInvariantsOnSeeds(t *testing.T) {
	for _, s := range []string{"Hi. There!", "はい。うん！", "a\n\n b .  c", "[x. y](u) z.", "\xff\xfe. x"} {
		checkSplitInvariants(t, s)
	}
}
