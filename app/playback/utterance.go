package playback

import (
	"context"
	"strings"
	"unicode"

	"yui/app/cue"
	"yui/app/sentence"
)

// Segment is one reply segment: its cues render first, then its speech.
type Segment struct {
	Cues   []cue.Cue `json:"cues,omitempty"`
	Speech string    `json:"speech"`
}

// item is one queued sentence, with the cue of its segment when it is the
// segment's first sentence.
type item struct {
	turnID  string
	bubble  string  // shown text
	speech  string  // spoken text
	cue     cue.Cue // fired before the sentence when leads is set
	leads   bool
	lineCue cue.Cue // the segment's merged cue, for the voice

	cueFired bool
	started  bool // speech_start went out
	fut      *future
	line     LineKind // a client line (Say); "" for reply speech
	cut      bool     // CutFillers dropped it before it started
}

// future is a synthesis running ahead of playback.
type future struct {
	done   chan struct{}
	cancel context.CancelFunc
	clip   Clip
	err    error
}

// utterance is the run of sentences of one turn between two boundaries.
type utterance struct {
	turnID    string
	items     []*item
	next      int // index of the item playing or next to play
	closed    bool
	heard     string   // whitespace-free text of every sentence queued
	lastFrame string   // whitespace-free speech of the previous speech frame
	line      LineKind // a client line (Say); "" for reply speech
	trimmed   bool     // the queue bound dropped some of its sentences
}

// noSpace drops whitespace, the key for repeat detection.
func noSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// plan is what adding segments to an utterance produced.
type plan struct {
	items  []*item
	silent []silentCue // cues of segments that added no sentence
}

type silentCue struct {
	turnID string
	cue    cue.Cue
	after  int // number of plan items queued before this cue
}

// add splits segs into sentences, skipping repeats as the package
// documentation describes. render selects the render rule.
func (u *utterance) add(segs []Segment, render bool) plan {
	var p plan
	if !render {
		var all strings.Builder
		for _, s := range segs {
			if !sentence.IsSilent(s.Speech) {
				all.WriteString(s.Speech)
			}
		}
		key := noSpace(all.String())
		if key != "" && key == u.lastFrame {
			segs = withoutSpeech(segs)
		} else if key != "" {
			u.lastFrame = key
		}
	}
	cursor, matching := 0, render && u.heard != ""
	for _, s := range segs {
		merged := cue.MergeAll(s.Cues)
		first := true
		if !sentence.IsSilent(s.Speech) {
			for _, raw := range sentence.Split(s.Speech) {
				key := noSpace(raw)
				if matching {
					if strings.HasPrefix(u.heard[cursor:], key) {
						cursor += len(key)
						continue
					}
					matching = false
				}
				bubble := sentence.BubbleText(raw)
				if bubble == "" {
					continue // nothing left to show or say
				}
				it := &item{turnID: u.turnID, bubble: bubble, speech: sentence.SpeechText(raw), lineCue: merged}
				if first && !merged.IsZero() {
					it.cue, it.leads = merged, true
				}
				first = false
				if len(u.heard) < maxHeard {
					u.heard += key // repeats past maxHeard are not recognised
				}
				p.items = append(p.items, it)
			}
		}
		if first && !merged.IsZero() {
			p.silent = append(p.silent, silentCue{turnID: u.turnID, cue: merged, after: len(p.items)})
		}
	}
	u.items = append(u.items, p.items...)
	return p
}

func withoutSpeech(segs []Segment) []Segment {
	out := make([]Segment, len(segs))
	for i, s := range segs {
		out[i] = Segment{Cues: s.Cues}
	}
	return out
}

// owed reports whether the utterance has a sentence not finished playing.
func (u *utterance) owed() bool { return u.next < len(u.items) }

// done reports whether the utterance is closed and fully played.
func (u *utterance) done() bool { return u.closed && !u.owed() }

// cut returns what was spoken and what is owed, or false when neither.
func (u *utterance) cut() (Cut, bool) {
	var spoken, unspoken []string
	for _, it := range u.items {
		if it.started {
			spoken = append(spoken, it.bubble)
		} else {
			unspoken = append(unspoken, it.bubble)
		}
	}
	if len(spoken) == 0 && len(unspoken) == 0 {
		return Cut{}, false
	}
	return Cut{TurnID: u.turnID, Spoken: strings.Join(spoken, " "), Unspoken: strings.Join(unspoken, " ")}, true
}

// spokenText joins the bubble text of every sentence of the utterance.
func (u *utterance) spokenText() string {
	parts := make([]string, len(u.items))
	for i, it := range u.items {
		parts[i] = it.bubble
	}
	return strings.Join(parts, " ")
}
