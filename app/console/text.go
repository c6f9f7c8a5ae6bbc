package console

import (
	"fmt"
	"strings"

	"yui/app/session"
)

// textEvent renders an event as one readable terminal line, or "" for
// events the terminal view leaves out.
func textEvent(ev session.Event) string {
	switch e := ev.(type) {
	case session.Socket:
		s := "· socket " + e.State
		if e.Code >= 0 {
			s += fmt.Sprintf(" (close %d)", e.Code)
		}
		if e.DelayMS > 0 {
			s += fmt.Sprintf(", retry in %d ms", e.DelayMS)
		}
		if e.Unauthorized {
			s += " — key refused"
		}
		return s
	case session.TurnSent:
		return "you> " + e.Text
	case session.Plate:
		if e.Text != "" {
			return "… " + e.Text
		}
	case session.Cue:
		var parts []string
		for _, p := range [][2]string{{"face", e.Cue.EmotionID}, {"motion", e.Cue.MotionID}, {"tone", e.Cue.EmotionText}, {"caption", e.Cue.Caption}} {
			if p[1] != "" {
				parts = append(parts, p[0]+"="+p[1])
			}
		}
		return "  [" + strings.Join(parts, " ") + "]"
	case session.SpeechStart:
		if e.Muted {
			return "yui (muted)> " + e.Text
		}
		return "yui> " + e.Text
	case session.Filler:
		return "yui> (" + e.Text + ")"
	case session.FailureLine:
		return "yui> " + e.Text
	case session.ErrorLine:
		return "! " + e.Text
	case session.Pill:
		if e.Tool == nil {
			return "  [tool: clear]"
		}
		s := "  [tool " + e.Tool.ToolID + ": " + e.Tool.State
		if e.Tool.Phrase != "" {
			s += " — " + e.Tool.Phrase
		}
		return s + "]"
	case session.Reasoning:
		if e.Text != "" {
			return "  (reasoning) " + lastLine(e.Text)
		}
	case session.Usage:
		if e.ContextWindow > 0 {
			return fmt.Sprintf("  tokens %d / %d", e.TotalTokens, e.ContextWindow)
		}
		return fmt.Sprintf("  tokens %d", e.TotalTokens)
	case session.Delegations:
		var b strings.Builder
		fmt.Fprintf(&b, "  delegations: %d shown, %d in history", len(e.Items), len(e.History))
		for _, it := range e.Items {
			fmt.Fprintf(&b, "\n    - %s [%s", it.Title, it.State)
			if it.Status != "" {
				b.WriteString(" " + it.Status)
			}
			b.WriteString("]")
		}
		return b.String()
	case session.ToolCall:
		return "  tool call " + e.Name + " " + string(e.Arguments)
	case session.ToolResult:
		return "  tool result " + e.Result
	}
	return ""
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
