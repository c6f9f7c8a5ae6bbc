package demobackend

import (
	"fmt"
	"strconv"
	"time"

	"yui/transport/push"
)

// Pacing of the scripts, before Config.TimeScale.
const (
	thinkStep = 400 * time.Millisecond  // between reasoning deltas
	speakStep = 700 * time.Millisecond  // between speech frames
	toolTime  = 1500 * time.Millisecond // a fake tool's run
	slowThink = time.Second             // slow: between reasoning deltas
	slowSpeak = 1200 * time.Millisecond // slow: between speech frames
)

// play runs a turn's scenario; every scenario ends in finish unless halted.
func (b *Backend) play(r *run, p plan) {
	var ok bool
	switch p.kind {
	case kindHelp:
		ok = r.think(thinkStep, "They want to know what the demo can do. ", "List the trigger words.") &&
			r.say(speakStep, helpLines(r.w)...) && r.closeWith(p.echo, r.pal.segment(line{emotion: "happy", motion: "idle_lively"}))
	case kindError:
		ok = r.think(thinkStep, "They asked for an error, so this turn fails on purpose.") && r.pause(thinkStep) &&
			r.emit(push.ErrorFrame{TurnID: r.id, Message: "Demo failure on request: you said \"error\"."})
	case kindSilent:
		ok = r.think(thinkStep, "Nothing needs saying; a quiet nod will do.") &&
			r.closeWith(false, r.pal.segment(line{emotion: "relaxed", motion: "calm"}))
	case kindSlow:
		ok = b.playSlow(r, p)
	case kindDelegate:
		ok = b.playDelegate(r, p)
	case kindLook:
		ok = b.playLook(r, p)
	case kindTool:
		ok = b.playTool(r, p)
	case kindPermission:
		ok = b.playPermission(r, p)
	case kindProactive:
		ok = b.playProactive(r, p)
	case kindBody:
		ok = b.playBody(r, p)
	case kindTalk, kindAnswer, kindRate, kindBrowse:
		ok = b.playAmong(r, p)
	default:
		ok = b.playSmallTalk(r, p)
	}
	if ok {
		r.finish()
	}
}

// quote returns the start of the user's text for the reasoning.
func quote(text string) string {
	q := []rune(text)
	if len(q) > 60 {
		return string(q[:60]) + "…"
	}
	return string(q)
}

func (b *Backend) playSmallTalk(r *run, p plan) bool {
	lines, i := chooseSmallTalk(r.w, r.text)
	if r.images > 0 {
		lines = imageLines(r.w, r.images)
		i = -1
	}
	first := fmt.Sprintf("The user said %q. ", quote(r.text))
	if r.text == "" {
		first = "No text: the client started this turn on its own. "
	}
	pick := "A greeting or a nudge: answer in kind."
	if i >= 0 {
		pick = fmt.Sprintf("I'll go with small-talk reply %d of %d.", i+1, len(smallTalk(r.w)))
	}
	return r.think(thinkStep, first, "No tool needed here. ", pick) &&
		r.say(speakStep, lines...) &&
		r.closeWith(p.echo, r.pal.segment(line{emotion: lines[len(lines)-1].emotion}))
}

// slowLines are the long answer, in w.
func slowLines(w phrasebook) []line {
	return []line{
		{text: w.s("slow.1"), emotion: "thinking"},
		{text: w.s("slow.2"), emotion: "thinking", motion: "calm"},
		{text: w.s("slow.3"), emotion: "curious"},
		{text: w.s("slow.4"), emotion: "relaxed", tone: "gently"},
		{text: w.s("slow.5"), emotion: "happy", motion: "happy", tone: "joyfully"},
	}
}

func (b *Backend) playSlow(r *run, p plan) bool {
	first := "This needs a long answer. "
	if p.stubborn {
		first = "This needs a long answer, and I won't be stopped. "
	}
	return r.think(slowThink, first, "I'll take my time with it.") &&
		r.say(slowSpeak, slowLines(r.w)...) &&
		r.closeWith(p.echo, r.pal.segment(line{emotion: "relaxed"}))
}

// imageLines answer a turn that came with images: the demo cannot see
// them, but it says how many arrived, which shows the pictures travelled.
func imageLines(w phrasebook, n int) []line {
	got := w.s("images.one")
	if n > 1 {
		got = w.s("images.many", "n", strconv.Itoa(n))
	}
	return []line{
		{text: got, emotion: "happy", motion: "happy", tone: "joyfully"},
		{text: w.s("images.cannot_see"), emotion: "embarrassed", motion: "sheepish"},
	}
}
