//go:build !bindings

package shell

// BindingsOnly is false in every real build; see bindingsmode.go.
const BindingsOnly = false
