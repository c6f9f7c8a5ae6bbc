package session

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"yui/app/clientctx"
	"yui/app/playback"
	"yui/transport"
)

// stopAction is one of the user actions that stop speech, plus reset.
type stopAction int

const (
	actionTurn       stopAction = iota + 1 // a typed or spoken turn
	actionBargeIn                          // voice barge-in
	actionStopButton                       // the stop button
	actionReset                            // reset stops as the stop button does
)

// SendText sends a turn the user typed, with the images attached since
// the last typed turn. It stops speech first (the outstanding turns are
// stopped without a stop frame; the backend folds the new text in). It
// returns the turn id, or "" for blank text. The outcome arrives as events.
func (s *Session) SendText(text string) string { return s.sendUser(text, fromTyped) }

// SendSpoken sends a turn the user spoke, as SendText does. Its error
// message shows in the status pill rather than the composer.
func (s *Session) SendSpoken(text string) string { return s.sendUser(text, fromSpoken) }

// StartTurn sends a turn the client starts on its own (proactive,
// schedule, another character) with the given trigger and utterance. It
// stops nothing. It returns the turn id.
func (s *Session) StartTurn(text string, trigger clientctx.Trigger) string {
	id := s.ids.Next()
	s.post(func() { s.startTurn(id, strings.TrimSpace(text), fromClient, trigger) })
	return id
}

func (s *Session) sendUser(text string, o origin) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	id := s.ids.Next()
	s.postUser(func() {
		s.stopSpeech(actionTurn)
		s.startTurn(id, text, o, clientctx.FromUser())
	})
	return id
}

// Stop is the stop button: it stops speech and every outstanding turn and
// sends one stop frame naming them, when there is one.
func (s *Session) Stop() { s.postUser(func() { s.stopSpeech(actionStopButton) }) }

// BargeIn is voice barge-in: it stops speech and the outstanding turns,
// sends one stop frame naming them (the user's speech may yet come to no
// turn: a cough, a blank transcript), and keeps the cut turns muted
// (shown, not voiced) until the next accepted reply: the first render or
// speech frame that plays of a turn it did not cut unmutes.
func (s *Session) BargeIn() {
	s.postUser(func() {
		if s.st.mutedCut == nil {
			s.st.mutedCut = make(map[string]bool)
		}
		for id := range s.st.turns {
			s.st.mutedCut[id] = true
		}
		s.stopSpeech(actionBargeIn)
		s.st.muted = true
		s.player.SetMuted(true)
	})
}

// Reset stops as the stop button does, sends reset and starts a new
// transcript: the reasoning display and the previous-turn record are
// cleared. The delegation history is kept; the live list empties when the
// backend's next delegations frame says so.
func (s *Session) Reset() {
	s.postUser(func() {
		s.stopSpeech(actionReset)
		if err := s.tr.Reset(context.Background()); err != nil {
			s.log.Warn(s.logName("reset_not_sent"), "err", err.Error())
			s.emit(ErrorLine{Text: s.lines.NotConnected, Where: WhereComposer})
			return
		}
		s.clearRecord()
		s.clearReasoning()
	})
}

// Reconnect is the user's reconnect: a fresh attempt now, the delay
// schedule back at its first value; it also retries after the backend
// refused the key.
func (s *Session) Reconnect() { s.tr.Reconnect() }

// stopSpeech is the common part of the three actions that stop speech:
// interrupt playback (recording the cut), mark every outstanding turn
// stopped, and for the stop button send one stop frame naming them.
func (s *Session) stopSpeech(a stopAction) {
	cuts := s.interruptPlayer()
	s.st.deferred = nil
	s.recordCut(cuts)
	// ids are every outstanding turn (still awaiting its turn_end), those
	// an earlier action already stopped included: the spec's stop names
	// "every turn that was outstanding on the chat at that moment".
	var ids []string
	for id, t := range s.st.turns {
		ids = append(ids, id)
		if t.stopped {
			continue
		}
		t.stopped = true
		t.running = false
		t.stopTimers()
		s.tr.ForgetTurn(id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return strings.Compare(a, b)
	})
	if p := s.st.pill.cur; p != nil && slices.Contains(ids, p.TurnID) {
		s.setPill(nil)
	}
	s.syncRunning()
	if len(ids) == 0 {
		return
	}
	// The stop names every outstanding turn before the oldest stopped
	// ones past the cap are let go.
	defer s.boundStoppedTurns()
	if a == actionStopButton || a == actionReset || a == actionBargeIn {
		if err := s.tr.Stop(context.Background(), ids); err != nil {
			s.log.Info(s.logName("stop_not_sent"), "turns", len(ids), "err", err.Error())
		}
		return
	}
	s.tr.MarkStopped(ids...)
}

// interruptPlayer drops everything queued and fences off the player
// events delivered before the interrupt.
func (s *Session) interruptPlayer() []playback.Cut {
	// The fence bumps the generation before the player can deliver again,
	// so the Idle the cut leads to is not taken for an event from before.
	return s.player.InterruptFenced(func() { s.pgen.Add(1) })
}

// recordCut saves an interrupted record for the cut utterance: what was
// heard of the first cut (the one playing) and everything still owed.
func (s *Session) recordCut(cuts []playback.Cut) {
	if len(cuts) == 0 {
		return
	}
	first := cuts[0]
	var owed []string
	for _, c := range cuts {
		if c.Unspoken != "" {
			owed = append(owed, c.Unspoken)
		}
	}
	label := s.originOf(first.TurnID).label()
	s.record(clientctx.NewInterrupted(label, s.now(), first.Spoken, strings.Join(owed, " ")))
}

// startTurn sends one turn and shows it running.
func (s *Session) startTurn(id, text string, o origin, trig clientctx.Trigger) {
	atts, ok := s.takeAttachments(o)
	if !ok {
		return
	}
	s.st.turnOrd++
	s.st.turnSeq++
	t := &turn{id: id, origin: o, ord: s.st.turnOrd, seq: s.st.turnSeq}
	s.st.turns[id] = t
	s.remember(id, o)
	shot := s.screenshot()
	rebuild := func(withShot bool) string {
		if withShot {
			return s.contextBlock(trig, screenshotLine(shot))
		}
		return s.contextBlock(trig, nil)
	}
	frame, err := s.fitTurn(transport.Turn{TurnID: id, ClientContext: rebuild(true), Text: text},
		turnImages{shot: shot, atts: atts}, rebuild)
	if err == nil {
		err = s.tr.SendTurn(context.Background(), frame)
	}
	if err != nil {
		delete(s.st.turns, id)
		s.st.closed.add(id)
		s.sendFailed(t, len(atts) > 0, err)
		return
	}
	s.turnLog.Info("turn", "turn_id", id, "trigger", o.label(), "chars", len([]rune(text)),
		"images", len(frame.Images), "spoke_text", false)
	s.st.lastSent = id
	sent := TurnSent{TurnID: id, Text: text}
	if trig.Kind == clientctx.Character {
		sent.From = trig.Name
	}
	s.emit(sent)
	t.running = true
	s.syncRunning()
	s.sayFiller(t, s.lines.Thinking[s.st.fillerIndex%len(s.lines.Thinking)])
	s.st.fillerIndex++
	s.armLater(t)
}

// sendFailed reports a turn frame that did not go out.
func (s *Session) sendFailed(t *turn, withImages bool, err error) {
	s.log.Warn("turn_not_sent", "turn_id", t.id, "err", err.Error())
	where := WhereComposer
	if t.origin == fromSpoken {
		where = WherePill
	}
	switch {
	case errors.Is(err, transport.ErrImagesNotAccepted):
		s.emit(ErrorLine{TurnID: t.id, Text: s.lines.ImagesRefused, Where: where})
	case errors.Is(err, errImagesUnfit), errors.Is(err, transport.ErrOversize) && withImages:
		s.emit(ErrorLine{TurnID: t.id, Text: s.lines.ImagesTooLarge, Where: where})
	case errors.Is(err, transport.ErrOversize):
		s.emit(ErrorLine{TurnID: t.id, Text: s.lines.TooLong, Where: where})
	default:
		// The spec's network failure: a turn that starts before ready.
		if s.closing.Load() {
			return // quitting is no network failure
		}
		s.sayFailure(t.id, s.lines.NoConnection)
		s.record(clientctx.NewFailed(t.origin.label(), s.now(), ""))
	}
}

// contextBlock builds the turn's client_context block.
// shot is the screenshot line's data, nil for none.
func (s *Session) contextBlock(trig clientctx.Trigger, shot *clientctx.Screenshot) string {
	c := clientctx.Context{Now: s.now(), Zone: s.opts.Zone, Trigger: trig, Screenshot: shot}
	if c.Zone == nil {
		c.Zone = time.Local
	}
	if s.opts.Body != nil {
		c.Body = s.opts.Body()
	}
	if s.opts.Frontmost != nil {
		c.Frontmost = s.opts.Frontmost()
	}
	if rec, ok := s.prev.Get(); ok {
		c.Previous = &rec
	}
	return c.Block()
}
