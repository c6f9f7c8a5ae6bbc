//go:build !linux && !windows

package listen

import (
	"log/slog"

	"yui/app/audio"
)

// SystemInput is nil on systems without a capture path: the pill says
// there is no microphone.
func SystemInput(lg *slog.Logger) audio.Input { return nil }
