package settings

import (
	"errors"
	"testing"
)

func TestTalkAndBrowserSitesAreValidatedNamingTheField(t *testing.T) {
	base := Defaults()
	for _, c := range []struct {
		edit  func(*Settings)
		field string
	}{
		{func(s *Settings) { s.Talk.MaxHops = MaxTalkHops + 1 }, "talk.max_hops"},
		{func(s *Settings) { s.Talk.MaxHops = -1 }, "talk.max_hops"},
		{func(s *Settings) { s.Talk.PerMinute = MaxTalkPerMinute + 1 }, "talk.per_minute"},
		{func(s *Settings) { s.Presets[0].Permissions.BrowserSites = []string{"News.Example/x"} }, "presets[0].permissions.browser_sites"},
	} {
		s := base
		s.Presets = append([]Preset(nil), base.Presets...)
		c.edit(&s)
		var fe *FieldError
		if err := Validate(&s); !errors.As(err, &fe) || fe.Field != c.field {
			t.Errorf("want a refusal of %s, got %v", c.field, err)
		}
	}
	s := base
	s.Talk = Talk{MaxHops: 3, PerMinute: 10}
	if err := Validate(&s); err != nil || s.Talk.Hops() != 3 || s.Talk.Rate() != 10 || (Talk{}).Hops() != DefaultTalkHops {
		t.Fatalf("%v %+v", err, s.Talk)
	}
}
