package listen

import (
	"log/slog"

	"yui/app/audio"
	"yui/app/audio/winmm"
)

// SystemInput is this system's microphone: WinMM's waveIn on Windows (no
// cgo).
func SystemInput(lg *slog.Logger) audio.Input { return winmm.NewInput(lg) }
