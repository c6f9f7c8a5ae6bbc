package instance

import "testing"

// leftBehind: a named pipe goes with the process that made it; nothing is
// left behind to check.
func leftBehind(*testing.T, string) {}
