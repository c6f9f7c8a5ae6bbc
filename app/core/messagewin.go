package core

import (
	"path/filepath"
	"strings"

	"yui/app/atomicfile"
	"yui/app/delegation"
	"yui/app/session"
	"yui/app/settings"
	"yui/app/supervisor"
	"yui/app/transcript"
	"yui/app/view"
)

// The message window (docs/message-window.md): one per character, the same
// binary with role flags like the settings window, started on the first
// open_messages and hidden (not ended) when closed. Its page mirrors the
// pet page of its preset (app/view: every pet topic reaches it too) and
// shows the character's transcript, which the pet records here from its
// session's events. It runs no socket of its own: what it sends goes
// through the pet's session.

// messageWindowName is the supervisor's name for preset id's message window.
func messageWindowName(id string) string { return "message:" + id }

// transcriptPath is preset id's transcript file ("" without a config
// directory: kept in memory).
func transcriptPath(configDir, id string) string {
	if configDir == "" {
		return ""
	}
	return filepath.Join(configDir, "transcript-"+atomicfile.SafeName(id)+".json")
}

// openMessages shows preset id's message window: the process starts on
// first use; later opens show the hidden window. Without window processes
// (--no-windows) a browser loads the page instead.
func (c *Core) openMessages(id string) {
	p, ok := c.presetNow(id)
	if !ok || c.pet(id) == nil {
		c.log.Warn("view_unknown_preset", "preset", id, "type", view.TypeOpenMessages)
		return
	}
	c.log.Info("messages_open", "preset", id)
	if c.opts.NoWindows {
		return
	}
	c.petsMu.Lock()
	started := c.started
	c.petsMu.Unlock()
	if !started {
		return
	}
	if c.sup.Run(c.messageSpec(p)) {
		return // starting: it opens shown
	}
	c.view.Send(view.RoleMessageShell, id, view.MustEncode(view.TypeWindowShow, struct{}{}))
}

func (c *Core) messageSpec(p settings.Preset) supervisor.Spec {
	args := []string{"window", "--role", view.RoleMessage, "--preset", p.ID, "--core", c.view.URL()}
	if c.opts.LogDir != "" {
		args = append(args, "--log-dir", c.opts.LogDir)
	}
	return supervisor.Spec{
		Name: messageWindowName(p.ID),
		Path: c.opts.Exe,
		Args: args,
		Env:  []string{tokenEnv + "=" + c.issue(view.Grant{Role: view.RoleMessageShell, Preset: p.ID})},
		// Closing hides it; a process that ends anyway opens again on the
		// next request rather than by itself.
		Once: true,
	}
}

// messageWindowConfig is the message shell's window_config. Its title
// starts like every Yui window's, so perch targets and the frontmost line
// leave it out.
func (c *Core) messageWindowConfig(p settings.Preset) view.WindowConfig {
	return view.WindowConfig{Kind: view.WindowMessage, Title: messageTitle(p.Name), Width: view.MessageWidth, Height: view.MessageHeight,
		MinWidth: view.MessageMinWidth, MinHeight: view.MessageMinHeight,
		PageToken: c.issue(view.Grant{Role: view.RoleMessage, Preset: p.ID})}
}

// messageTitle is a message window's title, "Yui — Mio — Messages"; a
// character named as the app gets "Yui — Messages", not "Yui — Yui —
// Messages" (issue 21).
func messageTitle(name string) string {
	name = strings.TrimSpace(name)
	if name == "" || strings.EqualFold(name, appName) {
		return appName + " — Messages"
	}
	return appName + " — " + name + " — Messages"
}

// appName starts every Yui window's title (look.OwnTitlePrefix).
const appName = "Yui"

// sendTranscript sends preset id's whole transcript to its message pages
// (a page that connected, a reset).
func (c *Core) sendTranscript(id string) {
	pt := c.pet(id)
	if pt == nil || pt.transcript == nil {
		return
	}
	es := pt.transcript.Entries()
	out := view.Transcript{Entries: make([]view.TranscriptEntry, 0, len(es))}
	for _, e := range es {
		if e.Kind == transcript.KindUser && e.Text == "" {
			continue // a turn nobody typed (a trigger)
		}
		out.Entries = append(out.Entries, viewEntry(e))
	}
	c.view.Send(view.RoleMessage, id, view.MustEncode(view.TypeTranscript, out))
}

// resetConversation is New conversation, from the pet menu, the settings
// window or the message window: the session stops and resets, and the
// transcript is emptied (what is shown and what a request transport
// sends).
func (c *Core) resetConversation(pt *pet) {
	pt.sess.Reset()
	if pt.transcript != nil {
		pt.transcript.Clear()
		c.sendTranscript(pt.preset)
	}
}

func viewEntry(e transcript.Entry) view.TranscriptEntry {
	return view.TranscriptEntry{ID: e.ID, TurnID: e.TurnID, Kind: e.Kind, Text: e.Text, Reasoning: e.Reasoning, State: e.State, At: e.At}
}

// sendEntry sends one added or changed row to the message pages.
func (pt *pet) sendEntry(e transcript.Entry) {
	if e.Kind == transcript.KindUser && e.Text == "" {
		return
	}
	pt.core.view.Send(view.RoleMessage, pt.preset, view.MustEncode(view.TypeTranscriptEntry, viewEntry(e)))
}

// record keeps what the user reads back in the message window: their
// lines, her sentences as they start (the reply streams as she speaks),
// the reasoning, tool and delegation rows, and errors. Called from onEvent
// (the session's goroutine, pt.mu held).
func (pt *pet) record(e session.Event) {
	tr := pt.transcript
	if tr == nil {
		return
	}
	reply := func(save bool, fn func(*transcript.Entry)) {
		if got, ok := tr.Update(e.TurnID, transcript.KindReply, save, fn); ok {
			pt.sendEntry(got)
			return
		}
		ne := transcript.Entry{TurnID: e.TurnID, Kind: transcript.KindReply, State: "streaming"}
		fn(&ne)
		pt.sendEntry(tr.Add(ne))
	}
	switch e.Kind {
	case session.KindTurnSent:
		// A new turn: earlier replies are over (one she never said aloud,
		// a silent render, has no idle to end it).
		pt.finishReplies()
		if strings.TrimSpace(e.Text) != "" {
			pt.sendEntry(tr.Add(transcript.Entry{TurnID: e.TurnID, Kind: transcript.KindUser, Text: e.Text}))
		}
	case session.KindSpeechStart:
		if e.TurnID == "" || strings.TrimSpace(e.Text) == "" {
			return
		}
		reply(true, func(x *transcript.Entry) {
			if x.Text != "" {
				x.Text += " "
			}
			x.Text += strings.TrimSpace(e.Text)
		})
	case session.KindReasoning:
		if e.TurnID == "" || e.Text == "" {
			return
		}
		reply(!e.Streaming, func(x *transcript.Entry) { x.Reasoning = e.Text })
	case session.KindComposer:
		pt.replyLocked = e.Locked
	case session.KindCue:
		// Her face eases back once playback went idle: with no turn
		// running, the replies she was saying are done (the wire's
		// turn_end comes before she has said them).
		if e.TurnID == "" && e.Cue.EmotionID == "neutral" && e.Cue.MotionID == "" && !pt.replyLocked {
			pt.finishReplies()
		}
	case session.KindFailureLine, session.KindErrorLine:
		if strings.TrimSpace(e.Text) == "" {
			return
		}
		if last, ok := tr.Find(e.TurnID, transcript.KindError); ok && last.Text == e.Text {
			return // the same failure as a line and in the pill
		}
		pt.sendEntry(tr.Add(transcript.Entry{TurnID: e.TurnID, Kind: transcript.KindError, Text: e.Text, State: "failed"}))
	case session.KindPill:
		if e.Tool == nil {
			return
		}
		key := "tool:" + e.Tool.ToolID
		label := toolLabel(e.Tool.ToolID)
		if e.Tool.State == "running" {
			if last, ok := tr.Find(key, transcript.KindTool); ok && last.State == "running" {
				return
			}
			pt.sendEntry(tr.Add(transcript.Entry{TurnID: key, Kind: transcript.KindTool, Text: label, State: "running"}))
			return
		}
		if got, ok := tr.Update(key, transcript.KindTool, true, func(x *transcript.Entry) {
			if x.State == "running" {
				x.State = e.Tool.State
			}
		}); ok {
			pt.sendEntry(got)
		}
	case session.KindDelegations:
		for _, it := range e.Items {
			pt.recordDelegation(it)
		}
	}
}

// finishReplies marks the replies still streaming done.
func (pt *pet) finishReplies() {
	for _, got := range pt.transcript.FinishReplies() {
		pt.sendEntry(got)
	}
}

// recordDelegation adds a row when a background task starts and marks it
// when it ends (with its summary).
func (pt *pet) recordDelegation(it delegation.Item) {
	tr := pt.transcript
	key := "delegation:" + it.ID
	text := it.Title
	done := it.State != "running"
	if done && it.Summary != "" {
		text = it.Title + " — " + it.Summary
	}
	last, ok := tr.Find(key, transcript.KindDelegation)
	switch {
	case !ok:
		st := "running"
		if done {
			st = "done"
		}
		pt.sendEntry(tr.Add(transcript.Entry{TurnID: key, Kind: transcript.KindDelegation, Text: text, State: st}))
	case last.State == "running" && done:
		got, _ := tr.Update(key, transcript.KindDelegation, true, func(x *transcript.Entry) { x.State, x.Text = "done", text })
		pt.sendEntry(got)
	}
}
