//go:build bindings

package main

// `go tool wails generate module` builds with the bindings tag and runs the
// binary to read the bound methods; that run must not start a core.
func init() { bindingsOnly = true }
