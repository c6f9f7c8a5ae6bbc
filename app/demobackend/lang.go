package demobackend

import (
	"embed"
	"fmt"
	"sync"
	"unicode"

	"yui/app/i18n"
	"yui/app/phrase"
)

// Her language (docs/demo-backend.md, "Her language"): the demo answers in
// the language the user writes in, as a model would — a message with
// Hangul is Korean, one with kana Japanese, one with Han characters and
// neither Chinese, anything else English. A chat keeps the language of
// its latest such message for the turns without text (proactive ones,
// delegation reports); before the user has written, it is Config.Language
// (the embedding host's choice, like a real backend's prompt). It reads
// nothing of the client's settings.

//go:embed lines_*.json
var lineFiles embed.FS

// phrasebook is her lines in one language, by key.
type phrasebook map[string]string

var catalogues = sync.OnceValue(func() map[i18n.Lang]phrasebook {
	out := map[i18n.Lang]phrasebook{}
	for _, l := range i18n.Supported {
		data, err := i18n.CatalogueFile(lineFiles, "lines_", l)
		if err != nil {
			panic(fmt.Errorf("demobackend lines_%s.json: %w", l, err)) // a test covers every file
		}
		var w phrasebook
		if err := i18n.DecodeStrict(data, &w); err != nil {
			panic(fmt.Errorf("demobackend lines_%s.json: %w", l, err))
		}
		out[l] = w
	}
	return out
})

// wordsIn are the lines in lang (English for one without a catalogue).
func wordsIn(lang i18n.Lang) phrasebook {
	if w, ok := catalogues()[lang]; ok {
		return w
	}
	return catalogues()[i18n.English]
}

// s is line key with its {name} placeholders filled from name, value
// pairs; English's line when this language lacks it (a test forbids that).
func (w phrasebook) s(key string, pairs ...string) string {
	text, ok := w[key]
	if !ok {
		text = catalogues()[i18n.English][key]
	}
	vars := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		vars[pairs[i]] = pairs[i+1]
	}
	return phrase.Fill(text, vars)
}

// detect is the language text is written in, and false for text with no
// letter that tells (digits, emoji, an empty message).
func detect(text string) (i18n.Lang, bool) {
	han, latin := false, false
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Hangul, r):
			return i18n.Korean, true
		case unicode.Is(unicode.Hiragana, r), unicode.Is(unicode.Katakana, r):
			return i18n.Japanese, true
		case unicode.Is(unicode.Han, r):
			han = true
		case unicode.IsLetter(r):
			latin = true
		}
	}
	switch {
	case han:
		return i18n.SimplifiedChinese, true
	case latin:
		return i18n.English, true
	}
	return "", false
}

// languageLocked is the language of a turn of ch with text: the text's
// own, remembered for the chat, else the chat's, else the configured one.
// Needs Backend.mu.
func (b *Backend) languageLocked(ch *chat, text string) i18n.Lang {
	if l, ok := detect(text); ok {
		ch.lang = l
	}
	if ch.lang != "" {
		return ch.lang
	}
	return b.cfg.Language
}
