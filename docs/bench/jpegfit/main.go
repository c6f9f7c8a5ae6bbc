// Command jpegfit is the benchmark driver of docs/bench/jpegfit.sh:
//
//	jpegfit gen W H out.png       write a screenshot-like PNG
//	jpegfit fit SHARE in out.jpg  fit in into a JPEG of at most SHARE bytes
//	jpegfit ssim ref.png out.jpg  print the luma SSIM of out against ref
//
// It lives under docs/ because it is a measuring tool, not part of Yui.
package main

import (
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

func run(args []string) error {
	if len(args) == 4 && args[0] == "gen" {
		w, errW := strconv.Atoi(args[1])
		h, errH := strconv.Atoi(args[2])
		if errW != nil || errH != nil {
			return fmt.Errorf("gen: bad size %s×%s", args[1], args[2])
		}
		return generate(w, h, args[3])
	}
	if len(args) == 4 && args[0] == "fit" {
		share, err := strconv.Atoi(args[1])
		if err != nil {
			return fmt.Errorf("fit: bad share %q: %w", args[1], err)
		}
		return fitFile(share, args[2], args[3])
	}
	if len(args) == 3 && args[0] == "ssim" {
		v, err := ssimFiles(args[1], args[2])
		if err != nil {
			return err
		}
		fmt.Printf("%.4f\n", v)
		return nil
	}
	return fmt.Errorf("usage: jpegfit gen W H out.png | fit SHARE in out.jpg | ssim ref.png out.jpg")
}
