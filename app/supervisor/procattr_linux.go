package supervisor

import "syscall"

// procAttr makes the child die with the core even if the core is killed
// hard (SIGTERM on the parent's death).
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
