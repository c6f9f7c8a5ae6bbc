package demobackend

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// The scenarios among friends (issue 26): two characters talking
// (address_character), rating the user (rate_relation) and reading or
// opening a page (browser). They call the client's tools, so they play on
// push, where the backend calls them; on the request wires the client
// lends no tool to a scripted backend and she says so.

// Trigger words of these scenarios (docs/demo-backend.md).
var (
	wordsTalk   = []string{"talk", "chat", "say"}
	notAName    = []string{"me", "you", "us", "them", "her", "him", "it", "the", "a"}
	wordsRate   = []string{"thanks", "thank", "rate"}
	wordsBrowse = []string{"read", "browse", "open"}
	wordsOpen   = []string{"open"}
)

// characterTrigger starts the trigger line of a turn another character
// started.
const characterTrigger = "trigger: character "

// toName is the character a "talk to <Name>" turn names.
var toName = regexp.MustCompile(`(?i)\b(?:to|with)\s+([\p{L}\p{N}][\p{L}\p{N}_-]*)`)

// pageURL is the first http(s) URL of a turn.
var pageURL = regexp.MustCompile(`https?://[^\s<>"']+`)

// planAmong reads the scenarios of this file: a turn another character
// started (its trigger line) first, then a URL with read/browse/open, a
// "talk to <Name>", a thanks.
func planAmong(text, clientContext string) (plan, bool) {
	for _, l := range strings.Split(clientContext, "\n") {
		if who, ok := strings.CutPrefix(strings.TrimSpace(l), characterTrigger); ok {
			return plan{kind: kindAnswer, who: who}, true
		}
	}
	ws := words(text)
	if u := pageURL.FindString(text); u != "" && hasAny(ws, wordsBrowse) {
		return plan{kind: kindBrowse, url: strings.TrimRight(u, ".,!?)"), open: hasAny(ws, wordsOpen)}, true
	}
	if m := toName.FindStringSubmatch(text); m != nil && hasAny(ws, wordsTalk) && !slices.Contains(notAName, strings.ToLower(m[1])) {
		return plan{kind: kindTalk, who: m[1]}, true
	}
	if hasAny(ws, wordsRate) {
		return plan{kind: kindRate}, true
	}
	return plan{}, false
}

// playAmong plays one of these scenarios.
func (b *Backend) playAmong(r *run, p plan) bool {
	b.mu.Lock()
	tools := slices.Clone(r.ch.tools)
	b.mu.Unlock()
	tool := map[kind]string{kindTalk: "address_character", kindAnswer: "address_character", kindRate: "rate_relation", kindBrowse: "browser"}[p.kind]
	if !slices.Contains(tools, tool) {
		return r.think(thinkStep, fmt.Sprintf("This needs the client's %s tool, and it declared none.", tool)) &&
			r.say(speakStep, line{text: r.w.s("among.no_tool"), emotion: "sad"}) &&
			r.closeWith(p.echo, r.pal.segment(line{emotion: "relaxed"}))
	}
	switch p.kind {
	case kindTalk:
		return b.playTalk(r, p.who, "Hello "+p.who+"! The user asked me to say hi. How is your day?", []line{
			{text: r.w.s("among.say_hi", "who", p.who), emotion: "happy", motion: "happy"},
		})
	case kindAnswer:
		return b.playTalk(r, p.who, "Nice to hear from you, "+p.who+"! What shall we do next?", []line{
			{text: r.w.s("among.hi", "who", p.who), emotion: "surprised", motion: "happy"},
			{text: r.w.s("among.answer"), emotion: "happy"},
		})
	case kindRate:
		return b.playRate(r)
	}
	return b.playBrowse(r, p)
}

// playTalk speaks lines, then addresses who; a busy chain (the client's
// cap) ends the talk kindly.
func (b *Backend) playTalk(r *run, who, text string, lines []line) bool {
	if !r.think(thinkStep, "I'll call address_character for "+who+". ") || !r.say(speakStep, lines...) {
		return false
	}
	result, _, err := b.srv.CallTool(r.ctx, r.ch.id, r.id, "address_character", map[string]string{"character": who, "text": text})
	if r.ctx.Err() != nil {
		return false
	}
	var after line
	switch {
	case err == nil && result == "ok":
		after = line{text: r.w.s("among.told", "who", who), emotion: "happy"}
	case err == nil && result == "error: busy":
		after = line{text: r.w.s("among.busy"), emotion: "relaxed", motion: "calm"}
	case err == nil && result == "error: invalid field character":
		after = line{text: r.w.s("among.nobody", "who", who), emotion: "curious"}
	default:
		after = line{text: r.w.s("among.unreachable", "who", who), emotion: "sad"}
	}
	return r.note(fmt.Sprintf("address_character answered %q.", quote(result))) &&
		r.say(speakStep, after) && r.closeWith(false, r.pal.segment(line{emotion: after.emotion}))
}

// playRate raises the standing toward the user by 2 and says the answer.
func (b *Backend) playRate(r *run) bool {
	if !r.think(thinkStep, "That was kind. I'll note it with rate_relation. ") {
		return false
	}
	result, _, err := b.srv.CallTool(r.ctx, r.ch.id, r.id, "rate_relation", map[string]any{"target": "user", "delta": 2, "reason": "said thanks"})
	if r.ctx.Err() != nil {
		return false
	}
	text := r.w.s("among.welcome")
	if err == nil && strings.HasPrefix(result, "ok: user ") {
		text = r.w.s("among.welcome_more", "standing", strings.TrimPrefix(result, "ok: user "))
	}
	return r.note(fmt.Sprintf("rate_relation answered %q.", quote(result))) &&
		r.say(speakStep, line{text: text, emotion: "happy", motion: "happy"}) &&
		r.closeWith(false, r.pal.segment(line{emotion: "happy"}))
}

// playBrowse reads (or opens) the page and tells its title and first
// sentence.
func (b *Backend) playBrowse(r *run, p plan) bool {
	action := "read"
	if p.open {
		action = "open"
	}
	if !r.think(thinkStep, fmt.Sprintf("I'll ask the client's browser to %s %s. ", action, p.url)) {
		return false
	}
	result, _, err := b.srv.CallTool(r.ctx, r.ch.id, r.id, "browser", map[string]string{"action": action, "url": p.url})
	if r.ctx.Err() != nil {
		return false
	}
	var lines []line
	switch {
	case err != nil:
		lines = []line{{text: r.w.s("browse.no_answer"), emotion: "sad"}}
	case result == "error: blocked":
		lines = []line{{text: r.w.s("browse.blocked"), emotion: "embarrassed", motion: "sheepish"}}
	case strings.HasPrefix(result, "error: permission pending"):
		lines = []line{{text: r.w.s("browse.pending"), emotion: "curious"}}
	case strings.HasPrefix(result, "error: "):
		lines = []line{{text: r.w.s("browse.failed"), emotion: "sad"}}
	case p.open:
		lines = []line{{text: r.w.s("browse.opened"), emotion: "happy"}}
	default:
		title, body, _ := strings.Cut(result, "\n\n")
		first, _, _ := strings.Cut(strings.TrimSpace(body), ". ")
		lines = []line{{text: r.w.s("browse.title", "title", clip(title, 80)), emotion: "thinking"}}
		if first != "" {
			lines = append(lines, line{text: r.w.s("browse.starts", "text", clip(first, 160)), emotion: "curious"})
		}
	}
	return r.note(fmt.Sprintf("browser answered %q.", quote(result))) &&
		r.say(speakStep, lines...) && r.closeWith(false, r.pal.segment(line{emotion: lines[len(lines)-1].emotion}))
}

// clip keeps the first n characters of s.
func clip(s string, n int) string {
	if q := []rune(strings.TrimSpace(s)); len(q) > n {
		return string(q[:n]) + "…"
	}
	return strings.TrimSpace(s)
}
