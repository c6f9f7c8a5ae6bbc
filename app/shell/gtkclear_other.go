//go:build !(linux && cgo && desktop)

package shell

func installClearOnDraw() {}
