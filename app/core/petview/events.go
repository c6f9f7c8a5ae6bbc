package petview

import (
	"time"

	"yui/app/conncause"
	"yui/app/delegation"
	"yui/app/session"
	"yui/app/view"
	"yui/transport/push"
)

// OnEvent shows one session event: the session's OnEvent. Each case
// records the transcript row first, then publishes the topics it changes.
// TurnEnd, ToolCall and ToolResult show nothing (the session logs them).
func (v *View) OnEvent(ev session.Event) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch e := ev.(type) {
	case session.Socket:
		v.onSocket(e)
	case session.Plate:
		v.st.thinking = e.Text == session.PlateThinking
		v.publishPlate()
	case session.Composer:
		v.st.locked = e.Locked
		v.publish(view.TypeComposer, view.Composer{Locked: e.Locked})
	case session.TurnSent:
		v.onTurnSent(e)
	case session.Cue:
		v.onCue(e)
	case session.SpeechStart:
		v.replyRow(e.TurnID, e.Text)
		v.st.speaking = true
		v.st.voiced = !e.Muted && v.cfg.Character.Voiced()
		v.publishCharacter()
		v.showBubble(e.TurnID, "speech", e.Text, true, e.Muted)
	case session.SpeechEnd:
		v.st.speaking, v.st.voiced = false, false
		v.publishCharacter()
		v.showBubble(e.TurnID, "speech", e.Text, false, e.Muted)
	case session.Filler:
		v.showBubble(e.TurnID, "filler", e.Text, false, false)
	case session.FailureLine:
		v.errorRow(e.TurnID, e.Text)
		v.showBubble(e.TurnID, "failure", e.Text, false, false)
	case session.ErrorLine:
		v.onErrorLine(e)
	case session.Pill:
		v.onPill(e)
	case session.Reasoning:
		v.onReasoning(e)
	case session.Usage:
		v.st.totalTokens = e.TotalTokens
		v.publishUsage()
	case session.Delegations:
		for _, it := range e.Items {
			v.delegationRow(it)
		}
		v.publish(view.TypeDelegations, view.Delegations{Items: delegation.ViewItems(e.Items)})
		v.cfg.Host.SetHistory(v.id, delegation.ViewItems(e.History))
	}
}

func (v *View) onSocket(e session.Socket) {
	v.st.socket, v.st.unauthorized = e.State, e.Unauthorized
	switch {
	case e.State == "ready":
		v.st.cause = conncause.Cause{}
	case e.Cause != nil:
		v.st.cause = conncause.Explain(e.Cause, v.cfg.Host.Endpoint(v.id))
	}
	delay := time.Duration(e.DelayMS) * time.Millisecond
	v.st.retryAt = time.Now().Add(delay)
	v.st.retryEvery = 0
	if delay >= push.ReconnectCap {
		v.st.retryEvery = delay
	}
	v.publishPlate()
	v.publishStatus()
}

// onTurnSent: a new turn ends the earlier replies (one she never said
// aloud, a silent render, has no idle to end it), adds the user's line,
// and clears the last turn's error lines.
func (v *View) onTurnSent(e session.TurnSent) {
	v.finishReplies()
	if e.From != "" {
		v.characterRow(e.TurnID, e.From+" → "+v.name()+": "+e.Text)
	} else {
		v.userRow(e.TurnID, e.Text)
	}
	v.publish(view.TypeErrorLine, view.ErrorLine{Where: session.WhereComposer})
	if v.st.pillErr != "" || v.st.voiceErr != "" {
		v.st.pillErr, v.st.voiceErr = "", ""
		v.publishPill()
	}
}

// onCue applies a face or motion. The client's own ease back to neutral
// after playback went idle ends the last motion (so a reloaded page does
// not replay it) and, with no turn running, the replies she was saying
// (the wire's turn_end comes before she has said them).
func (v *View) onCue(e session.Cue) {
	easedBack := e.TurnID == "" && e.Cue.EmotionID == "neutral" && e.Cue.MotionID == ""
	if easedBack && !v.st.locked {
		v.finishReplies()
	}
	if e.Cue.EmotionID != "" {
		v.st.emotion = e.Cue.EmotionID
	}
	if e.Cue.MotionID != "" {
		v.st.motion = e.Cue.MotionID
	}
	if easedBack {
		v.st.motion = "idle"
	}
	v.publishCharacter()
}

func (v *View) onErrorLine(e session.ErrorLine) {
	v.errorRow(e.TurnID, e.Text)
	if e.Where == session.WherePill {
		v.st.pillErr = e.Text
		v.publishPill()
		return
	}
	v.publish(view.TypeErrorLine, view.ErrorLine{Text: e.Text, Where: session.WhereComposer})
}

func (v *View) onPill(e session.Pill) {
	v.st.pillTool = nil
	if e.Tool != nil {
		v.toolRow(e.Tool.ToolID, e.Tool.State)
		v.st.pillTool = &view.PillTool{ToolID: e.Tool.ToolID, State: e.Tool.State, Label: toolLabel(e.Tool.ToolID), Phrase: e.Tool.Phrase}
	}
	v.publishPill()
}

func (v *View) onReasoning(e session.Reasoning) {
	v.reasoningRow(e.TurnID, e.Text, e.Streaming)
	whole := view.Reasoning{TurnID: e.TurnID, Text: e.Text, Streaming: e.Streaming, Cut: e.Cut}
	if !e.Append {
		v.publish(view.TypeReasoning, whole)
		return
	}
	// Live pages get the delta; one that connects later the whole text.
	v.cfg.Pages.PublishDelta(v.id, view.TypeReasoning, view.MustEncode(view.TypeReasoning, whole),
		view.MustEncode(view.TypeReasoning, view.Reasoning{TurnID: e.TurnID, Text: e.Delta, Streaming: e.Streaming, Cut: e.Cut, Append: true}))
}
