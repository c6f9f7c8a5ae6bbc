//go:build unix

package jpegfit

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) the test process has used:
// the benchmarks report it per op beside the wall time, the steadier
// figure on a shared machine.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
