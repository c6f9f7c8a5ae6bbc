package i18n

import "testing"

func TestMatch(t *testing.T) {
	cases := map[string]Lang{
		"":                English,
		"C":               English,
		"POSIX":           English,
		"C.UTF-8":         English,
		"en_US.UTF-8":     English,
		"en-GB":           English,
		"de_DE.UTF-8":     English,
		"ja_JP.UTF-8":     Japanese,
		"ja":              Japanese,
		"ja-JP":           Japanese,
		"ko_KR.UTF-8":     Korean,
		"ko-KR":           Korean,
		"zh_CN.UTF-8":     SimplifiedChinese,
		"zh_CN.GB18030@x": SimplifiedChinese,
		"zh-Hans-CN":      SimplifiedChinese,
		"zh-SG":           SimplifiedChinese,
		"not a locale!!":  English,
		"sr_RS@latin":     English,
	}
	for in, want := range cases {
		if got := Match(in); got != want {
			t.Errorf("Match(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, ok := range []string{"", "en", "ja", "ko", "zh-Hans"} {
		if _, err := Parse(ok); err != nil {
			t.Errorf("Parse(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"EN", "jp", "zh", "zh-hans", "zh-Hant", "ja-JP", " en"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

func TestEnvLocalePrecedence(t *testing.T) {
	env := map[string]string{"LANG": "ko_KR.UTF-8"}
	get := func(k string) string { return env[k] }
	if got := EnvLocale(get); got != "ko_KR.UTF-8" {
		t.Fatalf("LANG only: %q", got)
	}
	env["LC_MESSAGES"] = "ja_JP.UTF-8"
	if got := EnvLocale(get); got != "ja_JP.UTF-8" {
		t.Fatalf("LC_MESSAGES over LANG: %q", got)
	}
	env["LC_ALL"] = "zh_CN.UTF-8"
	if got := EnvLocale(get); got != "zh_CN.UTF-8" {
		t.Fatalf("LC_ALL over all: %q", got)
	}
	if got := EnvLocale(func(string) string { return "" }); got != "" {
		t.Fatalf("nothing set: %q", got)
	}
}

func TestResolve(t *testing.T) {
	if got := Resolve("", "ja_JP.UTF-8"); got != Japanese {
		t.Fatalf("empty setting follows system: %q", got)
	}
	if got := Resolve("ko", "ja_JP.UTF-8"); got != Korean {
		t.Fatalf("setting wins: %q", got)
	}
	if got := Resolve("bogus", "zh_CN"); got != SimplifiedChinese {
		t.Fatalf("bad setting falls back to system: %q", got)
	}
}

func TestTag(t *testing.T) {
	for _, l := range Supported {
		if l.Tag().String() != string(l) {
			t.Errorf("%q tag %q", l, l.Tag())
		}
	}
}

func TestBase(t *testing.T) {
	want := map[Lang]string{English: "en", Japanese: "ja", Korean: "ko", SimplifiedChinese: "zh"}
	for l, w := range want {
		if got := l.Base(); got != w {
			t.Errorf("%q.Base() = %q, want %q", l, got, w)
		}
	}
}
