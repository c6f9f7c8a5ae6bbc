//go:build !windows

package shell

import "image"

// setOrigin: only Windows' build needs one (Linux moves through GTK,
// move_gtk.go; elsewhere Wails is taken at its word).
func setOrigin(image.Rectangle) image.Point { return image.Point{} }
