// Command icons derives every icon from build/appicon.png (the 1024 px
// render of the character's head, made from frontend/src/character.ts by
// `make icons`):
//
//	build/linux/icons/hicolor/NxN/apps/yui.png   16 … 512 px, for the .deb
//	build/windows/icon.ico                       16 … 256 px, for the exe,
//	                                             the installer and the tray
//
// Usage: go run ./icons -src ../appicon.png -out .. (paths relative to
// build/tools, or absolute). Output is deterministic: the same source
// gives the same bytes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"github.com/tc-hib/winres"
	"golang.org/x/image/draw"
)

var (
	linuxSizes   = []int{16, 22, 24, 32, 48, 64, 128, 256, 512}
	windowsSizes = []int{16, 20, 24, 32, 40, 48, 64, 256}
)

func main() {
	src := flag.String("src", "", "the 1024 px source PNG (build/appicon.png)")
	out := flag.String("out", "", "the build directory to write into")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "icons:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if b := img.Bounds(); b.Dx() != 1024 || b.Dy() != 1024 {
		return fmt.Errorf("%s is %dx%d, want 1024x1024", src, b.Dx(), b.Dy())
	}
	for _, n := range linuxSizes {
		p := filepath.Join(out, "linux", "icons", "hicolor", fmt.Sprintf("%dx%d", n, n), "apps", "yui.png")
		if err := writePNG(p, resize(img, n)); err != nil {
			return err
		}
	}
	var imgs []image.Image
	for _, n := range windowsSizes {
		imgs = append(imgs, resize(img, n))
	}
	ico, err := winres.NewIconFromImages(imgs)
	if err != nil {
		return fmt.Errorf("icon.ico: %w", err)
	}
	var b bytes.Buffer
	if err := ico.SaveICO(&b); err != nil {
		return fmt.Errorf("icon.ico: %w", err)
	}
	return write(filepath.Join(out, "windows", "icon.ico"), b.Bytes())
}

// resize scales the source to n×n with Catmull-Rom (a sharp, ringing-free
// filter for downscaling line art).
func resize(src image.Image, n int) *image.NRGBA {
	dst := image.NewNRGBA(image.Rect(0, 0, n, n))
	draw.CatmullRom.Scale(dst, dst.Bounds(), src, src.Bounds(), draw.Src, nil)
	return dst
}

func writePNG(path string, img image.Image) error {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return write(path, b.Bytes())
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
