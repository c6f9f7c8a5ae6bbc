package demobackend

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"yui/transport/pushserver"
)

// playTool runs a fake backend tool: tool_status running, a pause, then done
// (or failed), and a reply about its answer.
func (b *Backend) playTool(r *run, p plan) bool {
	if !r.think(thinkStep, fmt.Sprintf("To answer that I need the %s tool. ", p.toolID)) ||
		!r.toolStatus("running", p.toolID) || !r.pause(toolTime) {
		return false
	}
	var lines []line
	switch {
	case p.fail:
		if !r.toolStatus("failed", p.toolID) {
			return false
		}
		if !r.note("It failed (on purpose).") {
			return false
		}
		lines = []line{
			{text: r.w.s("tool.failed", "tool", p.toolID), emotion: "sad", motion: "sulk"},
			{text: r.w.s("tool.on_purpose"), emotion: "embarrassed", motion: "sheepish"},
		}
	case p.toolID == "weather":
		if !r.toolStatus("done", p.toolID) {
			return false
		}
		if !r.note("It says: sunny, 22 °C, light breeze.") {
			return false
		}
		lines = []line{
			{text: r.w.s("tool.weather"), emotion: "happy", motion: "happy"},
			{text: r.w.s("tool.breeze"), emotion: "relaxed", motion: "calm"},
		}
	default:
		if !r.toolStatus("done", p.toolID) {
			return false
		}
		if !r.note("notes.txt: three to-dos, two done.") {
			return false
		}
		lines = []line{
			{text: r.w.s("tool.notes"), emotion: "thinking"},
			{text: r.w.s("tool.one_left"), emotion: "happy", motion: "happy", tone: "joyfully"},
		}
	}
	return r.say(speakStep, lines...) && r.closeWith(p.echo, r.pal.segment(line{emotion: lines[len(lines)-1].emotion}))
}

// playLook calls the client's look tool when its hello declared one.
func (b *Backend) playLook(r *run, p plan) bool {
	b.mu.Lock()
	hasLook := r.ch.hasLook
	b.mu.Unlock()
	at := "body"
	if p.screen {
		at = "screen"
	}
	if !hasLook {
		return r.think(thinkStep, "They want me to look, but this client declared no look tool.") &&
			r.say(speakStep,
				line{text: r.w.s("look.no_tool"), emotion: "sad"},
				line{text: r.w.s("look.main_window"), emotion: "relaxed"}) &&
			r.closeWith(p.echo, r.pal.segment(line{emotion: "relaxed"}))
	}
	if !r.think(thinkStep, fmt.Sprintf("I'll call the client's look tool with at=%s. ", at)) || !r.toolStatus("running", "look") {
		return false
	}
	result, images, err := b.srv.CallTool(r.ctx, r.ch.id, r.id, "look", map[string]string{"at": at})
	if r.ctx.Err() != nil || result == pushserver.ResultTurnStopped {
		return false // stopped, interrupted or closed: nothing more for this turn
	}
	if err != nil {
		b.log.Warn("demo.look_failed", "chat_id", r.ch.id, "turn_id", r.id, "error", err.Error())
		if errors.Is(err, pushserver.ErrNotDeclared) {
			result = "error: unknown tool"
		} else {
			result = "error: " + err.Error()
		}
	}
	failed := strings.HasPrefix(result, "error:")
	state := "done"
	if failed {
		state = "failed"
	}
	if !r.toolStatus(state, "look") {
		return false
	}
	if !r.note(fmt.Sprintf("The look tool answered %q with %s.", quote(result), plural(len(images), "image"))) {
		return false
	}
	return r.say(speakStep, lookLines(r.w, result, len(images), failed)...) &&
		r.closeWith(p.echo, r.pal.segment(line{emotion: "happy"}))
}

// playPermission answers the turn the client starts when the user
// answered the screen prompt: allowed, it looks again at once; denied, it
// takes the no kindly.
func (b *Backend) playPermission(r *run, p plan) bool {
	if p.allowed {
		return r.think(thinkStep, "They said yes to the screen prompt, so I'll look again. ") &&
			b.playLook(r, plan{kind: kindLook, screen: true, echo: p.echo})
	}
	return r.think(thinkStep, "They said no to the screen prompt; that is fine.") &&
		r.say(speakStep,
			line{text: r.w.s("look.declined"), emotion: "relaxed", motion: "calm"},
			line{text: r.w.s("look.tell_me"), emotion: "happy"}) &&
		r.closeWith(p.echo, r.pal.segment(line{emotion: "happy"}))
}

// lookLines reports the look tool's answer. An error answer is told in
// plain words, never quoted: raw "error: …" text is not for speech.
func lookLines(w phrasebook, result string, images int, failed bool) []line {
	switch {
	case result == "error: permission denied":
		return []line{
			{text: w.s("look.denied"), emotion: "embarrassed", motion: "sheepish"},
			{text: w.s("look.eyes_to_myself"), emotion: "relaxed"},
		}
	case strings.HasPrefix(result, "error: permission pending"):
		return []line{
			{text: w.s("look.asked"), emotion: "curious"},
			{text: w.s("look.answer_prompt"), emotion: "happy"},
		}
	case failed:
		return []line{
			{text: w.s("look.failed"), emotion: "sad"},
			{text: w.s("look.try_again"), emotion: "thinking"},
		}
	case images > 0:
		got := w.s("look.screenshot_one")
		if images != 1 {
			got = w.s("look.screenshot_many", "n", strconv.Itoa(images))
		}
		return []line{
			{text: got, emotion: "happy", motion: "happy"},
			{text: w.s("look.cannot_see"), emotion: "embarrassed", motion: "sheepish"},
		}
	default:
		return []line{
			{text: w.s("look.looked"), emotion: "curious"},
			{text: w.s("look.found", "result", strings.TrimSuffix(quote(result), ".")), emotion: "thinking"},
		}
	}
}

// plural returns "1 image" or "n images".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
