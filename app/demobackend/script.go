package demobackend

import (
	"strings"
	"unicode"
)

// kind is the scenario a turn's text selects.
type kind int

const (
	kindSmallTalk kind = iota
	kindHelp
	kindError
	kindSilent
	kindSlow
	kindDelegate
	kindLook
	kindTool
	kindPermission // the user answered a screen prompt (client_context trigger)
	kindProactive  // the client started a turn on its own (proactive.go)
	kindBody       // a body_action trigger (body.go)
)

func (k kind) String() string {
	return [...]string{"small_talk", "help", "error", "silent", "slow", "delegate", "look", "tool", "permission", "proactive", "body"}[k]
}

// plan is what a turn will do, read from its text alone.
type plan struct {
	kind    kind
	toolID  string // kindTool: "weather" or "read_file"
	fail    bool   // kindTool: the tool fails; kindDelegate: the task fails
	screen  bool   // kindLook: look at the screen rather than the body
	allowed bool   // kindPermission: the user allowed (once or always)
	echo    bool   // the closing render repeats the streamed sentences
	// stubborn: kindSlow that ignores stop (a backend may), so a client's
	// dropping of a stopped turn's late frames can be seen.
	stubborn bool
	trigger  proactiveTrigger // kindProactive
	// body: kindBody's action (body.go).
	body bodyMove
}

// Trigger words, matched as whole words, case-insensitively. The first rule
// in planFor's order that matches wins; docs/demo-backend.md lists them.
var (
	wordsError    = []string{"error", "errors"}
	wordsSilent   = []string{"silent", "silence", "shh"}
	wordsSlow     = []string{"slow", "slowly"}
	wordsStubborn = []string{"stubborn"}
	wordsDelegate = []string{"delegate", "background"}
	wordsLook     = []string{"look", "screen"}
	wordsScreen   = []string{"screen"}
	wordsFail     = []string{"fail", "failed", "failure"}
	wordsWeather  = []string{"weather"}
	wordsTool     = []string{"tool", "tools", "check", "weather"}
	wordsHelp     = []string{"help", "demo"}
	wordsEcho     = []string{"echo", "repeat"}
	wordsGreeting = []string{"hello", "hi", "hey", "morning", "evening"}
)

// words splits text into lower-case words of letters and digits.
func words(text string) map[string]bool {
	out := make(map[string]bool)
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out[w] = true
	}
	return out
}

func hasAny(ws map[string]bool, list []string) bool {
	for _, w := range list {
		if ws[w] {
			return true
		}
	}
	return false
}

// permissionTrigger is the start of the trigger line of a turn the client
// starts when the user answered a screen permission prompt.
const permissionTrigger = "trigger: permission screen "

// planForTurn reads a turn: a permission trigger in its client_context
// (the user answered the prompt a look opened) wins over the text.
func planForTurn(text, clientContext string) plan {
	if p, ok := proactivePlan(clientContext); ok && text == "" {
		return p
	}
	for _, l := range strings.Split(clientContext, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), permissionTrigger); ok {
			return plan{kind: kindPermission, allowed: strings.HasPrefix(rest, "allowed")}
		}
	}
	return planFor(text)
}

// planFor reads a turn's text. Order: error, silent, slow, delegate, look,
// tool (fail alone is a failing tool), help, small talk.
func planFor(text string) plan {
	ws := words(text)
	p := plan{echo: hasAny(ws, wordsEcho), fail: hasAny(ws, wordsFail)}
	if m, ok := bodyTrigger(text); ok {
		p.kind, p.body = kindBody, m
		return p
	}
	switch {
	case hasAny(ws, wordsError):
		p.kind = kindError
	case hasAny(ws, wordsSilent):
		p.kind = kindSilent
	case hasAny(ws, wordsSlow) || hasAny(ws, wordsStubborn):
		p.kind = kindSlow
		p.stubborn = hasAny(ws, wordsStubborn)
	case hasAny(ws, wordsDelegate):
		p.kind = kindDelegate
	case hasAny(ws, wordsLook):
		p.kind = kindLook
		p.screen = hasAny(ws, wordsScreen)
	case hasAny(ws, wordsTool) || p.fail:
		p.kind = kindTool
		p.toolID = "read_file"
		if hasAny(ws, wordsWeather) {
			p.toolID = "weather"
		}
	case hasAny(ws, wordsHelp):
		p.kind = kindHelp
	default:
		p.kind = kindSmallTalk
	}
	return p
}
