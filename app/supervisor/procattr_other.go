//go:build !linux

package supervisor

import "syscall"

// procAttr has no parent-death signal outside Linux; a window process
// still quits when its connection to the core ends.
func procAttr() *syscall.SysProcAttr { return nil }
