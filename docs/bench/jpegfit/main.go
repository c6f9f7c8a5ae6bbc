// Command jpegfit is the benchmark driver of docs/bench/jpegfit.sh:
//
//	jpegfit gen W H out.png           write a screenshot-like PNG
//	jpegfit raw in.png out.rgba       write the PNG's pixels as raw RGBA
//	jpegfit fit SHARE in out.jpg      Fit: in (PNG, …) into a JPEG of at most SHARE bytes
//	jpegfit fitrgba SHARE in.rgba out.jpg
//	                                  FitRGBA: the raw pixels as an *image.RGBA, as a capture hands them over
//	jpegfit ref W H in.png out.png    the exact Lanczos-3 downscale to W×H (the reference)
//	jpegfit score ref.png out.jpg     print "SSIM PSNR" of out against ref
//
// fit and fitrgba print "WxH qQ N bytes" on stderr. It lives under docs/
// because it is a measuring tool, not part of Yui.
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "jpegfit:", err)
		os.Exit(1)
	}
}

const usage = "usage: jpegfit gen W H out.png | raw in.png out.rgba | fit SHARE in out.jpg | " +
	"fitrgba SHARE in.rgba out.jpg | ref W H in.png out.png | score ref.png out.jpg"

func run(args []string) error {
	switch {
	case len(args) == 4 && args[0] == "gen":
		w, h, err := size(args[1], args[2])
		if err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		return generate(w, h, args[3])
	case len(args) == 3 && args[0] == "raw":
		return toRaw(args[1], args[2])
	case len(args) == 4 && (args[0] == "fit" || args[0] == "fitrgba"):
		share, err := strconv.Atoi(args[1])
		if err != nil {
			return fmt.Errorf("%s: bad share %q: %w", args[0], args[1], err)
		}
		if args[0] == "fit" {
			return fitFile(share, args[2], args[3])
		}
		return fitRaw(share, args[2], args[3])
	case len(args) == 5 && args[0] == "ref":
		w, h, err := size(args[1], args[2])
		if err != nil {
			return fmt.Errorf("ref: %w", err)
		}
		return reference(w, h, args[3], args[4])
	case len(args) == 3 && args[0] == "score":
		s, p, err := score(args[1], args[2])
		if err != nil {
			return err
		}
		fmt.Printf("%.4f %.2f\n", s, p)
		return nil
	}
	return errors.New(usage)
}

func size(ws, hs string) (int, int, error) {
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	if errW != nil || errH != nil || w <= 0 || h <= 0 {
		return 0, 0, fmt.Errorf("bad size %s×%s", ws, hs)
	}
	return w, h, nil
}
