package supervisor

import (
	"os"
	"syscall"
)

// childAttr makes the kernel send the child SIGTERM when the core's thread
// that started it dies, so a window never outlives a killed core.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}

// tieToCore has nothing to do on Linux: Pdeathsig does it.
func tieToCore(*os.Process) error { return nil }

// signalChild delivers sig to the child.
func signalChild(p *os.Process, sig os.Signal) error { return p.Signal(sig) }
