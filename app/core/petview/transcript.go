package petview

import (
	"strings"
	"unicode"

	"yui/app/delegation"
	"yui/app/history"
	"yui/app/transcript"
	"yui/app/view"
)

// The transcript rows (docs/message-window.md): the user's lines, her
// sentences as they start (the reply streams as she speaks), the
// reasoning, tool and delegation rows, and errors. Each is recorded from
// OnEvent with mu held, and sent to the message pages as it changes.

// SendTranscript sends the message pages the newest page of the current
// conversation (a page that connected, a reset): what the window shows
// when it opens, the same cost however long her history is; older rows
// come a page at a time as the user scrolls back (app/core/archive).
func (v *View) SendTranscript() {
	tr := v.cfg.Transcript
	if tr == nil {
		return
	}
	es := tr.Latest(history.PageRows)
	conv := tr.Conv()
	out := view.Transcript{Conv: conv, Entries: make([]view.TranscriptEntry, 0, len(es))}
	var oldest uint64
	for _, e := range es {
		if oldest == 0 {
			oldest = e.ID
		}
		if e.Kind == transcript.KindUser && e.Text == "" {
			continue // a turn nobody typed (a trigger)
		}
		out.Entries = append(out.Entries, viewEntry(conv, e))
	}
	if _, more, err := tr.DB().Page(oldest, 0); err == nil {
		out.More = more
	}
	v.cfg.Pages.Send(view.RoleMessage, v.id, view.MustEncode(view.TypeTranscript, out))
}

// ClearTranscript empties the transcript (New conversation) and tells the
// message pages.
func (v *View) ClearTranscript() {
	if v.cfg.Transcript == nil {
		return
	}
	v.cfg.Transcript.Clear()
	v.SendTranscript()
}

func viewEntry(conv int64, e transcript.Entry) view.TranscriptEntry {
	return view.TranscriptEntry{ID: e.ID, Conv: conv, TurnID: e.TurnID, Kind: e.Kind, Text: e.Text, Reasoning: e.Reasoning, State: e.State, At: e.At}
}

// sendEntry sends one added or changed row to the message pages.
func (v *View) sendEntry(e transcript.Entry) {
	if e.Kind == transcript.KindUser && e.Text == "" {
		return
	}
	v.cfg.Pages.Send(view.RoleMessage, v.id, view.MustEncode(view.TypeTranscriptEntry, viewEntry(v.cfg.Transcript.Conv(), e)))
}

func (v *View) userRow(turnID, text string) {
	if v.cfg.Transcript == nil || strings.TrimSpace(text) == "" {
		return
	}
	v.sendEntry(v.cfg.Transcript.Add(transcript.Entry{TurnID: turnID, Kind: transcript.KindUser, Text: text}))
}

// reply changes turnID's reply row, adding it (streaming) if there is
// none.
func (v *View) reply(turnID string, save bool, fn func(*transcript.Entry)) {
	tr := v.cfg.Transcript
	if got, ok := tr.Update(turnID, transcript.KindReply, save, fn); ok {
		v.sendEntry(got)
		return
	}
	ne := transcript.Entry{TurnID: turnID, Kind: transcript.KindReply, State: "streaming"}
	fn(&ne)
	v.sendEntry(tr.Add(ne))
}

// replyRow adds a sentence she starts saying to her reply.
func (v *View) replyRow(turnID, text string) {
	if v.cfg.Transcript == nil || turnID == "" || strings.TrimSpace(text) == "" {
		return
	}
	v.reply(turnID, true, func(x *transcript.Entry) {
		if x.Text != "" {
			x.Text += " "
		}
		x.Text += strings.TrimSpace(text)
	})
}

// reasoningRow sets her reply's thoughts (saved once they stop streaming).
func (v *View) reasoningRow(turnID, text string, streaming bool) {
	if v.cfg.Transcript == nil || turnID == "" || text == "" {
		return
	}
	v.reply(turnID, !streaming, func(x *transcript.Entry) { x.Reasoning = text })
}

// errorRow adds a failure, once: the same failure as a line and in the
// pill is one row.
func (v *View) errorRow(turnID, text string) {
	tr := v.cfg.Transcript
	if tr == nil || strings.TrimSpace(text) == "" {
		return
	}
	if last, ok := tr.Find(turnID, transcript.KindError); ok && last.Text == text {
		return
	}
	v.sendEntry(tr.Add(transcript.Entry{TurnID: turnID, Kind: transcript.KindError, Text: text, State: "failed"}))
}

// toolRow adds a row when a tool starts running and marks it when it ends.
func (v *View) toolRow(toolID, state string) {
	tr := v.cfg.Transcript
	if tr == nil {
		return
	}
	key := "tool:" + toolID
	if state == "running" {
		if last, ok := tr.Find(key, transcript.KindTool); ok && last.State == "running" {
			return
		}
		v.sendEntry(tr.Add(transcript.Entry{TurnID: key, Kind: transcript.KindTool, Text: toolLabel(toolID), State: "running"}))
		return
	}
	if got, ok := tr.Update(key, transcript.KindTool, true, func(x *transcript.Entry) {
		if x.State == "running" {
			x.State = state
		}
	}); ok {
		v.sendEntry(got)
	}
}

// finishReplies marks the replies still streaming done.
func (v *View) finishReplies() {
	if v.cfg.Transcript == nil {
		return
	}
	for _, got := range v.cfg.Transcript.FinishReplies() {
		v.sendEntry(got)
	}
}

// delegationRow adds a row when a background task starts and marks it
// when it ends (with its summary).
func (v *View) delegationRow(it delegation.Item) {
	tr := v.cfg.Transcript
	if tr == nil {
		return
	}
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
		v.sendEntry(tr.Add(transcript.Entry{TurnID: key, Kind: transcript.KindDelegation, Text: text, State: st}))
	case last.State == "running" && done:
		got, _ := tr.Update(key, transcript.KindDelegation, true, func(x *transcript.Entry) { x.State, x.Text = "done", text })
		v.sendEntry(got)
	}
}

// toolLabel turns a backend tool id into a short label: "read_file" →
// "Read file".
func toolLabel(id string) string {
	s := strings.NewReplacer("_", " ", "-", " ", ".", " ").Replace(id)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "Tool"
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}
