package main

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"

	"yui/app/jpegfit"
)

// rawHeader is the size of a raw file's header: width and height as
// little-endian uint32s, then width×height×4 bytes of opaque RGBA.
const rawHeader = 8

// toRaw decodes the PNG at in and writes its pixels as a raw RGBA file,
// the in-memory form a screen capture returns (app/capture's *image.RGBA).
func toRaw(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return fmt.Errorf("raw: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return fmt.Errorf("raw: decode %s: %w", in, err)
	}
	b := img.Bounds()
	rgba := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			rgba.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	data := make([]byte, rawHeader, rawHeader+len(rgba.Pix))
	binary.LittleEndian.PutUint32(data[0:], uint32(b.Dx()))
	binary.LittleEndian.PutUint32(data[4:], uint32(b.Dy()))
	return os.WriteFile(out, append(data, rgba.Pix...), 0o644)
}

// fitRaw maps a raw RGBA file as an *image.RGBA (as a capture hands its
// pixels over) and fits it with jpegfit.FitRGBA into a JPEG payload of at most
// share bytes, written to out.
func fitRaw(share int, in, out string) error {
	data, err := mapFile(in)
	if err != nil {
		return fmt.Errorf("fitrgba: %w", err)
	}
	if len(data) < rawHeader {
		return fmt.Errorf("fitrgba: %s: no header", in)
	}
	w := int(binary.LittleEndian.Uint32(data[0:]))
	h := int(binary.LittleEndian.Uint32(data[4:]))
	if w <= 0 || h <= 0 || len(data)-rawHeader != w*h*4 {
		return fmt.Errorf("fitrgba: %s: %d bytes do not hold %dx%d pixels", in, len(data)-rawHeader, w, h)
	}
	img := &image.RGBA{Pix: data[rawHeader:], Stride: w * 4, Rect: image.Rect(0, 0, w, h)}
	urlBytes := len("data:image/jpeg;base64,") + base64.StdEncoding.EncodedLen(share)
	url, o, err := jpegfit.FitRGBA(context.Background(), img, urlBytes, jpegfit.Deadline{})
	if err != nil {
		return fmt.Errorf("fitrgba %s: %w", in, err)
	}
	_, payload, _ := strings.Cut(url, ";base64,")
	jpg, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return fmt.Errorf("fitrgba: %w", err)
	}
	fmt.Fprintf(os.Stderr, "%dx%d q%d %d bytes\n", o.Width, o.Height, o.Quality, o.Bytes)
	return os.WriteFile(out, jpg, 0o644)
}
