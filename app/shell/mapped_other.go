//go:build !(linux && cgo && desktop)

package shell

// onMapped has no GTK window to watch in this build: the mapped step is
// not logged (page_loaded follows it closely).
func onMapped(f func()) {}
