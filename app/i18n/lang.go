package i18n

import (
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// Lang is a supported language as its BCP 47 tag.
type Lang string

// The supported languages.
const (
	English           Lang = "en"
	Japanese          Lang = "ja"
	Korean            Lang = "ko"
	SimplifiedChinese Lang = "zh-Hans"
)

// Supported lists the languages with a full catalogue, English first (the
// fallback).
var Supported = []Lang{English, Japanese, Korean, SimplifiedChinese}

var matcher = language.NewMatcher([]language.Tag{
	language.English, language.Japanese, language.Korean, language.SimplifiedChinese,
})

// Tag is l as a golang.org/x/text language tag.
func (l Lang) Tag() language.Tag { return language.MustParse(string(l)) }

// Parse checks a language setting: "" (follow the system) or one of
// Supported, spelled exactly.
func Parse(s string) (Lang, error) {
	if s == "" {
		return "", nil
	}
	for _, l := range Supported {
		if string(l) == s {
			return l, nil
		}
	}
	return "", fmt.Errorf("unknown language %q (one of en, ja, ko, zh-Hans, or empty to follow the system)", s)
}

// Match maps a BCP 47 tag or a POSIX locale name to a supported language;
// English when nothing fits.
func Match(locale string) Lang {
	tag, err := language.Parse(posixToBCP47(locale))
	if err != nil {
		return English
	}
	_, i, conf := matcher.Match(tag)
	if conf == language.No {
		return English
	}
	return Supported[i]
}

// posixToBCP47 turns "ja_JP.UTF-8@euro" into "ja-JP"; "C" and "POSIX"
// become "" (no language).
func posixToBCP47(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, ".@"); i >= 0 {
		s = s[:i]
	}
	if s == "C" || s == "POSIX" {
		return ""
	}
	return strings.ReplaceAll(s, "_", "-")
}

// EnvLocale returns the locale the POSIX variables name, in their
// precedence order LC_ALL, LC_MESSAGES, LANG; "" when none is set.
func EnvLocale(getenv func(string) string) string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(k); v != "" {
			return v
		}
	}
	return ""
}

// Resolve is the language in force for a setting: the setting itself when
// it is a supported language, else the match of the system locale.
func Resolve(setting, systemLocale string) Lang {
	if l, err := Parse(setting); err == nil && l != "" {
		return l
	}
	return Match(systemLocale)
}

// Base is l's ISO 639-1 language code ("zh" for zh-Hans): what a
// transcription endpoint's language hint takes.
func (l Lang) Base() string {
	b, _ := l.Tag().Base()
	return b.String()
}
