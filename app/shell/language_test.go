package shell

import "testing"

func TestPageLang(t *testing.T) {
	for in, want := range map[string]string{"ja": "ja", "zh-Hans": "zh-Hans", "": "", "jp": "", "ko\nx": ""} {
		if got := pageLang(func(string) string { return in }); got != want {
			t.Errorf("pageLang(%q) = %q, want %q", in, got, want)
		}
	}
}
