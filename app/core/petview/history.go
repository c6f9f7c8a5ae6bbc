package petview

import (
	"fmt"
	"log/slog"

	"yui/app/delegation"
	apppet "yui/app/pet"
	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/transcript"
	"yui/app/view"
)

// OpenHistory opens preset p's history in configDir ("" keeps it in
// memory): her transcript, and an older delegation-history file imported
// before her session opens it. What cannot be read is kept aside, never
// lost, and her page is told in a notice: a transcript that cannot be
// read starts afresh; a database that cannot be opened keeps this run's
// conversation in memory, the file left as it is.
func OpenHistory(configDir string, p settings.Preset, pages Pages, lg *slog.Logger) *transcript.Store {
	notice := func(id, key string, err error) {
		m := phrase.New(key, "name", p.Name, "error", fmt.Sprint(err))
		pages.Publish(p.ID, view.TypeNotice, view.MustEncode(view.TypeNotice, view.NoticeOf(id, m)))
	}
	tr, err := transcript.Open(configDir, p.ID, lg, nil)
	if tr == nil {
		tr, _ = transcript.Open("", p.ID, lg, nil)
		notice("transcript_bad", "core.notice.history_unopened", err)
	} else if err != nil {
		notice("transcript_bad", "core.notice.transcript_bad", err)
	}
	if configDir == "" {
		return tr
	}
	h, _ := delegation.OpenHistory(configDir, p.ID, lg)
	if err := h.Damaged(); err != nil {
		notice("delegations_bad", "core.notice.delegations_bad", err)
	}
	if err := h.Close(); err != nil {
		lg.Warn("delegations.history_save_failed", "err", err.Error())
	}
	return tr
}

// SetThread shows what keeps a Standard Agents character from her thread
// (SetProblem).
func (v *View) SetThread(st apppet.ThreadStatus) {
	switch {
	case st.Deleted:
		v.SetProblem(view.ProblemThreadDeleted)
	case st.AgentUnknown:
		v.SetProblem(view.ProblemAgentUnknown)
	default:
		v.SetProblem("")
	}
}
