package mcp

import (
	"os/exec"
	"syscall"
)

// stopWithParent makes the kernel kill a stdio server when Yui's core
// dies without stopping it.
func stopWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
