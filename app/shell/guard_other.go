//go:build !(linux && cgo && desktop)

package shell

// installGuard has no web view to guard in this build (no WebKitGTK);
// the pages' own drop handling still applies.
func installGuard(g *guard) {}
