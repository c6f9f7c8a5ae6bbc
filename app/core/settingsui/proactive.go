package settingsui

import (
	"slices"

	"yui/app/settings"
	"yui/app/view"
)

// The "Speaking first" section (docs/proactive.md): the saved proactive
// settings for the form, and the form's edits merged into a save.

// PublishProactive tells the settings page the saved proactive section.
func (r *Room) PublishProactive() {
	p := r.cfg.Store.Get().Proactive
	f := view.ProactiveForm{Quiet: p.Quiet, GreetingsOff: p.GreetingsOff, Morning: p.Morning, Afternoon: p.Afternoon,
		Evening: p.Evening, Night: p.Night, AwayMinutes: p.AwayMinutes, CheckinsOff: p.CheckinsOff,
		CheckinMinutes: slices.Clone(p.CheckinMinutes), AppNotesOff: p.AppNotesOff, StretchMinutes: p.StretchMinutes,
		QuietGapMinutes: p.QuietGapMinutes, DebounceMinutes: p.DebounceMinutes, HourlyCap: p.HourlyCap,
		QuietHoursOff: p.QuietHoursOff, QuietFrom: p.QuietFrom, QuietTo: p.QuietTo, WhenMuted: p.WhenMuted,
		CallApps: slices.Clone(p.CallApps)}
	for _, s := range p.Schedules {
		f.Schedules = append(f.Schedules, view.ScheduleForm{Label: s.Label, At: s.At, Date: s.Date, Days: slices.Clone(s.Days)})
	}
	r.cfg.Pages.PublishSettings(view.TypeSettingsProactive, view.MustEncode(view.TypeSettingsProactive, view.SettingsProactive{Form: f}))
}

// mergeProactive replaces the proactive section with the form's; Validate
// then refuses a wrong value naming its field.
func mergeProactive(s *settings.Settings, f view.ProactiveForm) {
	p := settings.Proactive{Quiet: f.Quiet, GreetingsOff: f.GreetingsOff, Morning: f.Morning, Afternoon: f.Afternoon,
		Evening: f.Evening, Night: f.Night, AwayMinutes: f.AwayMinutes, CheckinsOff: f.CheckinsOff,
		CheckinMinutes: f.CheckinMinutes, AppNotesOff: f.AppNotesOff, StretchMinutes: f.StretchMinutes,
		QuietGapMinutes: f.QuietGapMinutes, DebounceMinutes: f.DebounceMinutes, HourlyCap: f.HourlyCap,
		QuietHoursOff: f.QuietHoursOff, QuietFrom: f.QuietFrom, QuietTo: f.QuietTo, WhenMuted: f.WhenMuted,
		CallApps: f.CallApps}
	if len(p.CheckinMinutes) == 0 {
		p.CheckinMinutes = nil
	}
	for _, sc := range f.Schedules {
		p.Schedules = append(p.Schedules, settings.Schedule{Label: sc.Label, At: sc.At, Date: sc.Date, Days: sc.Days})
	}
	s.Proactive = p
}
