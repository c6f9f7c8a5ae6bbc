package voice

import (
	"log/slog"

	"yui/app/audio"
	"yui/app/audio/oto"
)

// SystemOutput is this system's sound output: the Windows audio engine
// through oto (no cgo).
func SystemOutput(lg *slog.Logger) audio.Output {
	return oto.New(oto.Options{Logger: lg})
}
