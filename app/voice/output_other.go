//go:build !linux && !windows

package voice

import (
	"log/slog"

	"yui/app/audio"
)

// SystemOutput is nil on systems without a sound path yet: voices keep
// silent timing.
func SystemOutput(lg *slog.Logger) audio.Output { return nil }
