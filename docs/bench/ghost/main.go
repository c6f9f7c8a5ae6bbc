// Command ghost captures the screen ($DISPLAY, display 0) to a PNG, or
// compares two such PNGs: docs/bench/ghost.sh uses it to see whether the
// pet window leaves old pixels behind (ghosts) under a WebKit GPU policy.
//
// Usage: go run ./docs/bench/ghost shot OUT.png
//
//	go run ./docs/bench/ghost diff A.png B.png
package main

import (
	"fmt"
	"image"
	"image/png"
	"os"

	"github.com/kbinani/screenshot"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ghost:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 2 && args[0] == "shot":
		img, err := screenshot.CaptureDisplay(0)
		if err != nil {
			return err
		}
		f, err := os.Create(args[1])
		if err != nil {
			return err
		}
		defer f.Close()
		return png.Encode(f, img)
	case len(args) == 3 && args[0] == "diff":
		a, err := load(args[1])
		if err != nil {
			return err
		}
		b, err := load(args[2])
		if err != nil {
			return err
		}
		if a.Bounds() != b.Bounds() {
			return fmt.Errorf("sizes differ: %v, %v", a.Bounds(), b.Bounds())
		}
		n, box := 0, image.Rectangle{}
		for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
			for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
				r1, g1, b1, _ := a.At(x, y).RGBA()
				r2, g2, b2, _ := b.At(x, y).RGBA()
				if absd(r1, r2) > 0x1000 || absd(g1, g2) > 0x1000 || absd(b1, b2) > 0x1000 {
					n++
					box = box.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		fmt.Printf("%d pixels differ, within %v\n", n, box)
		return nil
	}
	return fmt.Errorf("usage: ghost shot OUT.png | ghost diff A.png B.png")
}

func absd(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func load(p string) (image.Image, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return png.Decode(f)
}
