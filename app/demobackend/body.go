package demobackend

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"yui/transport/pushserver"
)

// The body_action triggers (docs/demo-backend.md, "Her body"): phrases,
// matched case-insensitively anywhere in the text, that make the demo call
// the client's body_action, then say how it went.
//
//   - "sit on the terminal" (or "sit on <app>"): sit_on_window on a
//     terminal the client's look at perch_targets lists (or on <app>)
//   - "peek left" / "peek right": peek
//   - "go to the top-right" (top-left, bottom-left, bottom-right, center,
//     "the middle"): move_to
//   - "go to bed" / "go to sleep": go_to_bed
//   - "stand up": stand

// bodyMove is one body_action call: its action and one argument (app,
// side or spot) as key and value.
type bodyMove struct {
	action, key, value string
	// terminal: sit on whichever terminal the perch targets list.
	terminal bool
}

func (m bodyMove) args() map[string]any {
	a := map[string]any{"action": m.action}
	if m.key != "" {
		a[m.key] = m.value
	}
	return a
}

// terminals are app names taken for "the terminal".
var terminals = []string{"xterm", "uxterm", "gnome-terminal", "gnome-terminal-server", "konsole", "xfce4-terminal",
	"terminator", "alacritty", "kitty", "wezterm", "tilix", "lxterminal", "urxvt", "st", "foot", "terminal",
	"windowsterminal", "cmd", "powershell", "conhost"}

// bodyTrigger reads a body_action trigger from the text.
func bodyTrigger(text string) (bodyMove, bool) {
	t := " " + strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}), " ") + " "
	act := func(a string, kv ...string) (bodyMove, bool) {
		m := bodyMove{action: a}
		if len(kv) == 2 {
			m.key, m.value = kv[0], kv[1]
		}
		return m, true
	}
	switch {
	case strings.Contains(t, " sit on the terminal ") || strings.Contains(t, " sit on a terminal "):
		m, _ := act("sit_on_window")
		m.terminal = true
		return m, true
	case strings.Contains(t, " sit on "):
		app := strings.Fields(t[strings.Index(t, " sit on ")+len(" sit on "):])
		if len(app) > 0 && app[0] == "the" {
			app = app[1:]
		}
		if len(app) > 0 {
			return act("sit_on_window", "app", app[0])
		}
	case strings.Contains(t, " peek left "):
		return act("peek", "side", "left")
	case strings.Contains(t, " peek right "):
		return act("peek", "side", "right")
	case strings.Contains(t, " go to bed ") || strings.Contains(t, " go to sleep "):
		return act("go_to_bed")
	case strings.Contains(t, " stand up "):
		return act("stand")
	}
	for _, s := range []string{"top-left", "top-right", "bottom-left", "bottom-right", "center", "centre", "middle"} {
		if strings.Contains(t, " go to the "+s+" ") || strings.Contains(t, " go to "+s+" ") ||
			strings.Contains(t, " go to the "+strings.ReplaceAll(s, "-", " ")+" ") {
			if s == "centre" || s == "middle" {
				s = "center"
			}
			return act("move_to", "spot", s)
		}
	}
	return bodyMove{}, false
}

// playBody calls body_action (after look at perch_targets for "the
// terminal") and tells how it went.
func (b *Backend) playBody(r *run, p plan) bool {
	m := p.body
	if m.terminal {
		app, ok := b.findTerminal(r)
		if r.ctx.Err() != nil {
			return false
		}
		if !ok {
			return r.think(thinkStep, "They want me on a terminal, but I see none to sit on. ") &&
				r.say(speakStep, line{text: r.w.s("body.no_terminal"), emotion: "curious"},
					line{text: r.w.s("body.open_one"), emotion: "happy"}) &&
				r.closeWith(p.echo, r.pal.segment(line{emotion: "happy"}))
		}
		m.key, m.value = "app", app
	}
	args := m.args()
	if !r.think(thinkStep, fmt.Sprintf("I'll call body_action with %s. ", argsText(args))) || !r.toolStatus("running", "body_action") {
		return false
	}
	result, _, err := b.srv.CallTool(r.ctx, r.ch.id, r.id, "body_action", args)
	if r.ctx.Err() != nil || result == pushserver.ResultTurnStopped {
		return false
	}
	if err != nil {
		result = "error: " + err.Error()
		if errors.Is(err, pushserver.ErrNotDeclared) {
			result = "error: unknown tool"
		}
	}
	state := "done"
	if strings.HasPrefix(result, "error:") {
		state = "failed"
	}
	if !r.toolStatus(state, "body_action") || !r.note(fmt.Sprintf("body_action answered %q.", result)) {
		return false
	}
	return r.say(speakStep, bodyLines(r.w, m.action, result)...) && r.closeWith(p.echo, r.pal.segment(line{emotion: "happy"}))
}

// findTerminal asks look at perch_targets for a terminal window.
func (b *Backend) findTerminal(r *run) (string, bool) {
	res, _, err := b.srv.CallTool(r.ctx, r.ch.id, r.id, "look", map[string]string{"at": "perch_targets"})
	if err != nil {
		return "", false
	}
	var pt struct {
		Windows []struct {
			App string `json:"app"`
		} `json:"windows"`
	}
	if json.Unmarshal([]byte(res), &pt) != nil {
		return "", false
	}
	for i := len(pt.Windows) - 1; i >= 0; i-- {
		app := strings.ToLower(pt.Windows[i].App)
		for _, t := range terminals {
			if app == t || strings.HasSuffix(app, "terminal") {
				return pt.Windows[i].App, true
			}
		}
	}
	return "", false
}

func argsText(args map[string]any) string {
	b, _ := json.Marshal(args)
	return string(b)
}

// bodyLines says how the move went (error answers in plain words).
func bodyLines(w phrasebook, action, result string) []line {
	if result != "ok" {
		why := map[string]string{
			"error: not_found":    "body.not_found",
			"error: blocked":      "body.blocked",
			"error: interrupted":  "body.interrupted",
			"error: busy":         "body.busy",
			"error: unsupported":  "body.unsupported",
			"error: unknown tool": "body.no_body",
		}[result]
		if why == "" {
			why = "body.failed"
		}
		return []line{{text: w.s(why), emotion: "embarrassed", motion: "sheepish"}}
	}
	switch action {
	case "sit_on_window":
		return []line{{text: w.s("body.sat"), emotion: "happy", motion: "happy"}}
	case "peek":
		return []line{{text: w.s("body.peek"), emotion: "curious"}}
	case "move_to":
		return []line{{text: w.s("body.moved"), emotion: "happy"}}
	case "go_to_bed":
		return []line{{text: w.s("body.bed"), emotion: "sleepy"}}
	}
	return []line{{text: w.s("body.back"), emotion: "relaxed"}}
}
