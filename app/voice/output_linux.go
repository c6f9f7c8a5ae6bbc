package voice

import (
	"log/slog"

	"yui/app/audio"
	"yui/app/audio/pulse"
)

// SystemOutput is this system's sound output: PulseAudio's native
// protocol (served by PulseAudio and PipeWire) on Linux.
func SystemOutput(lg *slog.Logger) audio.Output {
	return pulse.New(pulse.Options{Logger: lg})
}
