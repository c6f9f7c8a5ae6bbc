package petview

import (
	"fmt"
	"sync/atomic"

	"yui/app/phrase"
	"yui/app/settings"
	"yui/app/view"
)

// FirstRunTip is the notice the main character shows once, on the first
// run (no settings file existed): firstRunTip's English.
const FirstRunTip = "Click me to talk · right-click for settings. I tell your agent which app you are using; switch that off in Settings."

const tipID = "first_run_tip"

// firstRunTip is the tip as the page words it.
var firstRunTip = phrase.New("core.notice.first_run")

// Tip is the first-run tip: on one character's page (the main one's on
// the first run) until the user has talked to her, or its × is clicked.
// Every View shares it.
type Tip struct {
	pages Pages
	at    atomic.Value // the preset whose page shows it ("" none)
}

// NewTip is a tip shown on nobody's page.
func NewTip(pages Pages) *Tip {
	t := &Tip{pages: pages}
	t.at.Store("")
	return t
}

// Show shows the tip on preset's page.
func (t *Tip) Show(preset string) {
	t.at.Store(preset)
	t.pages.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.NoticeOf(tipID, firstRunTip)))
}

// Drop takes the tip away from preset's page if it shows it (the user has
// talked to her).
func (t *Tip) Drop(preset string) {
	if t.at.CompareAndSwap(preset, "") {
		t.pages.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.Notice{ID: tipID}))
	}
}

// SettingsNotice tells preset's page that the settings file could not be
// used (rep.Problem; nothing when there was none).
func SettingsNotice(pages Pages, preset string, rep settings.Report) {
	if rep.Problem == nil {
		return
	}
	m := phrase.New("core.notice.settings_bad", "error", fmt.Sprint(rep.Problem), "kept", rep.KeptAs)
	pages.Publish(preset, view.TypeNotice, view.MustEncode(view.TypeNotice, view.NoticeOf("settings_bad", m)))
}
