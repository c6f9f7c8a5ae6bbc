package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"strings"

	"yui/app/jpegfit"
)

// fitFile fits the image at in into a JPEG payload of at most share bytes
// and writes the payload to out. The frame is the bare data URL, so the
// cap is the URL length of share bytes.
func fitFile(share int, in, out string) error {
	data, err := os.ReadFile(in)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	prefix := "data:image/jpeg;base64,"
	capBytes := len(prefix) + base64.StdEncoding.EncodedLen(share)
	bare := func(urls []string) ([]byte, error) { return []byte(strings.Join(urls, "")), nil }
	res, err := jpegfit.Fit(context.Background(), []jpegfit.Image{{Data: data}}, capBytes, bare)
	if err != nil {
		return fmt.Errorf("fit %s: %w", in, err)
	}
	_, payload, _ := strings.Cut(res.URLs[0], ";base64,")
	jpg, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	o := res.Images[0]
	fmt.Fprintf(os.Stderr, "%dx%d q%d %d bytes\n", o.Width, o.Height, o.Quality, o.Bytes)
	return os.WriteFile(out, jpg, 0o644)
}
