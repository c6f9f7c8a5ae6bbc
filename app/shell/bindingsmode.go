//go:build bindings

package shell

// BindingsOnly is true in `wails generate module` builds (the bindings
// tag): that run only reads the bound methods and must not start a core.
const BindingsOnly = true
