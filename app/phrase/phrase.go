package phrase

import (
	"fmt"
	"regexp"
)

// Phrase is one published text: Key names it in the pages' catalogues,
// Vars fills its {name} placeholders (already formatted: numbers as
// digits, names as they are).
type Phrase struct {
	Key  string            `json:"key"`
	Vars map[string]string `json:"vars,omitempty"`
}

// New is the phrase key with vars given as name, value pairs. A key
// English does not know, or an odd pair list, is a programming error.
func New(key string, pairs ...string) Phrase {
	if _, ok := english[key]; !ok {
		panic(fmt.Sprintf("phrase: unknown key %q", key))
	}
	if len(pairs)%2 != 0 {
		panic(fmt.Sprintf("phrase %q: odd name/value list", key))
	}
	p := Phrase{Key: key}
	if len(pairs) > 0 {
		p.Vars = make(map[string]string, len(pairs)/2)
		for i := 0; i < len(pairs); i += 2 {
			p.Vars[pairs[i]] = pairs[i+1]
		}
	}
	return p
}

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// English is the phrase in English, as the English page shows it; "" for
// the zero Phrase. A placeholder without a value stays as written.
func (p Phrase) English() string {
	if p.Key == "" {
		return ""
	}
	return Fill(english[p.Key], p.Vars)
}

// Fill puts vars into template's {name} placeholders (a name without a
// value stays as written), as the pages' t() does.
func Fill(template string, vars map[string]string) string {
	return placeholder.ReplaceAllStringFunc(template, func(m string) string {
		if v, ok := vars[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// Ptr is p as an optional protocol field: nil for the zero Phrase.
func (p Phrase) Ptr() *Phrase {
	if p.Key == "" {
		return nil
	}
	return &p
}
