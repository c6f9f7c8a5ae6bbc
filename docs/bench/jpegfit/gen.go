package main

import (
	"fmt"
	"image/png"
	"os"

	"yui/app/jpegfit/jpegfittest"
)

// generate writes a deterministic screenshot-like PNG at default
// compression, as a screen capture tool would.
func generate(w, h int, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if err := png.Encode(f, jpegfittest.Screenshot(w, h, 2026)); err != nil {
		f.Close()
		return fmt.Errorf("gen: encode %s: %w", path, err)
	}
	return f.Close()
}
