package vrm

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
)

// MappingFile is a look folder's mapping.json (docs/looks.md): which
// expressions, at which weights (0–1), show each emotion, and which motion
// ids play which of the folder's .vrma clips. Both parts are optional; an
// emotion or motion it leaves out keeps its default.
type MappingFile struct {
	Emotions map[string]Weights `json:"emotions"`
	Motions  map[string]string  `json:"motions"`
}

// Weights are expression weights by expression name.
type Weights map[string]float64

// MaxMappingBytes bounds mapping.json.
const MaxMappingBytes = 16 << 10

var idPattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// ParseMapping reads mapping.json. A bad file is refused naming the entry
// at fault.
func ParseMapping(b []byte) (MappingFile, error) {
	var m MappingFile
	if err := json.Unmarshal(b, &m); err != nil {
		return MappingFile{}, fmt.Errorf("not valid JSON: %v", err)
	}
	for e, ws := range m.Emotions {
		if !idPattern.MatchString(e) {
			return MappingFile{}, fmt.Errorf("emotion %q: an emotion id is 1–32 lower-case letters, digits or _, starting with a letter", e)
		}
		for x, w := range ws {
			if x == "" || len(x) > 64 {
				return MappingFile{}, fmt.Errorf("emotion %q: an expression name is 1–64 characters", e)
			}
			if w < 0 || w > 1 {
				return MappingFile{}, fmt.Errorf("emotion %q: the weight of %q must be from 0 to 1 (it is %g)", e, x, w)
			}
		}
	}
	for id, clip := range m.Motions {
		if !idPattern.MatchString(id) {
			return MappingFile{}, fmt.Errorf("motion %q: a motion id is 1–32 lower-case letters, digits or _, starting with a letter", id)
		}
		if clip == "" {
			return MappingFile{}, fmt.Errorf("motion %q: names no clip", id)
		}
	}
	return m, nil
}

// defaultEmotions are the ten emotions' defaults: for each, the choices in
// order; the first whose expressions the model has (all of them) wins.
// The five VRM presets show themselves; the other four use an expression
// of their own name when the model has one (a custom expression), else a
// blend of presets.
var defaultEmotions = map[string][]Weights{
	"neutral":     {{}},
	"happy":       {{"happy": 1}},
	"angry":       {{"angry": 1}},
	"sad":         {{"sad": 1}},
	"relaxed":     {{"relaxed": 1}},
	"surprised":   {{"surprised": 1}},
	"thinking":    {{"thinking": 1}, {"sad": 0.2, "relaxed": 0.3}, {"relaxed": 0.4}},
	"curious":     {{"curious": 1}, {"surprised": 0.4, "happy": 0.3}, {"surprised": 0.5}},
	"sleepy":      {{"sleepy": 1}, {"relaxed": 0.6, "blink": 0.45}, {"blink": 0.5}},
	"embarrassed": {{"embarrassed": 1}, {"happy": 0.4, "sad": 0.35}, {"sad": 0.5}},
}

// Emotions are the ten default emotion ids in the vocabulary's order.
var Emotions = []string{"neutral", "happy", "angry", "sad", "relaxed", "surprised", "thinking", "curious", "sleepy", "embarrassed"}

// Mapping is a resolved mapping: the weights of each emotion the model can
// show, and each motion id mapped to a clip.
type Mapping struct {
	Emotions map[string]Weights
	Motions  map[string]string
}

// EmotionIDs are the emotions the mapping shows: neutral, the ten
// defaults the model can show in their order, then the file's own, sorted.
func (m Mapping) EmotionIDs() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range Emotions {
		if _, ok := m.Emotions[e]; ok {
			out = append(out, e)
			seen[e] = true
		}
	}
	var extra []string
	for e := range m.Emotions {
		if !seen[e] {
			extra = append(extra, e)
		}
	}
	sort.Strings(extra)
	return append(out, extra...)
}

// Resolve makes the mapping of a model with info's expressions and the
// clips (names without .vrma) its folder holds: the file's entries where
// they name expressions the model has (weights of expressions it lacks
// are dropped), the defaults elsewhere. An emotion none of whose
// expressions the model has is left out (neutral always stays). A motion
// naming a clip the folder lacks is an error.
func Resolve(file MappingFile, info Info, clips []string) (Mapping, error) {
	m := Mapping{Emotions: map[string]Weights{}, Motions: map[string]string{}}
	usable := func(w Weights) (Weights, bool) {
		out := Weights{}
		for x, v := range w {
			if info.Has(x) && v > 0 {
				out[x] = v
			}
		}
		return out, len(out) > 0
	}
	for e, choices := range defaultEmotions {
		if e == "neutral" {
			m.Emotions[e] = Weights{}
			continue
		}
		for _, c := range choices {
			if w, ok := usable(c); ok && len(w) == len(c) {
				m.Emotions[e] = w
				break
			}
		}
	}
	for e, w := range file.Emotions {
		if u, ok := usable(w); ok {
			m.Emotions[e] = u
		} else if e == "neutral" {
			m.Emotions[e] = Weights{}
		}
	}
	has := map[string]bool{}
	for _, c := range clips {
		has[c] = true
		m.Motions[c] = c // a clip plays under its own name
	}
	for id, clip := range file.Motions {
		if !has[clip] {
			return Mapping{}, fmt.Errorf("motion %q: there is no %s.vrma in the look folder", id, clip)
		}
		m.Motions[id] = clip
	}
	return m, nil
}
