package tts

import "yui/app/i18n"

// ESpeakVoiceFor is the espeak-ng voice that reads a language, measured on
// Debian 12's espeak-ng 1.51 (docs/languages.md): "" (its default, en) for
// English; "ja" reads kana (kanji are spelled out as "Chinese letter"); "ko"
// reads Hangul; "cmn-latn-pinyin" reads Han characters as Mandarin (the
// plain "cmn" voice reads the pinyin tone numbers aloud in English).
func ESpeakVoiceFor(lang i18n.Lang) string {
	switch lang {
	case i18n.Japanese:
		return "ja"
	case i18n.Korean:
		return "ko"
	case i18n.SimplifiedChinese:
		return "cmn-latn-pinyin"
	}
	return ""
}
