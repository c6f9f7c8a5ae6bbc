package frontmost

// System is the platform's Source: the X display of $DISPLAY.
func System() Source { return &X11{} }
