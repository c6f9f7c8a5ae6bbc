package capture

import "log/slog"

// NewSystem returns the platform's Source: the X server of $DISPLAY.
func NewSystem(log *slog.Logger) Source { return NewX11(log) }
