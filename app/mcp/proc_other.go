//go:build !linux

package mcp

import "os/exec"

// stopWithParent: elsewhere the server is stopped by Hub.Close only.
func stopWithParent(*exec.Cmd) {}
