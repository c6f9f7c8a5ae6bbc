//go:build !(linux && cgo && desktop)

package shell

// useDamageCompositing: no WebKitGTK in this build.
func useDamageCompositing() {}
