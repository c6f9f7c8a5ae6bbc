package listen

import (
	"log/slog"

	"yui/app/audio"
	"yui/app/audio/pulse"
)

// SystemInput is this system's microphone: PulseAudio's native protocol
// (served by PulseAudio and PipeWire) on Linux.
func SystemInput(lg *slog.Logger) audio.Input {
	return pulse.NewInput(pulse.Options{Logger: lg})
}
