package listen

import "yui/app/settings"

// FromSettings is the listener's configuration from the settings' listen
// section.
func FromSettings(l settings.Listen) Config {
	return Config{On: l.On, Source: l.Device, Sensitivity: l.SensitivityPercent(), BargeIn: l.BargeIn}
}

// EndpointFromSettings is the transcription endpoint the settings name;
// nil when no URL is set (the pill then asks for one).
func EndpointFromSettings(l settings.Listen) Transcriber {
	if l.BaseURL == "" {
		return nil
	}
	return &Endpoint{BaseURL: l.BaseURL, Key: l.Key, Model: l.Model, Language: l.Language}
}
