package jpegfit

import (
	"context"
	"strings"
	"testing"

	"yui/app/jpegfit/jpegfittest"
)

// BenchmarkFit4K fits a 3840×2160 screenshot-like PNG into a 256 KiB JPEG
// share, in process (docs/bench/jpegfit.sh times the whole command).
func BenchmarkFit4K(b *testing.B) {
	data, err := jpegfittest.PNG(jpegfittest.Screenshot(3840, 2160, 2026))
	if err != nil {
		b.Fatal(err)
	}
	capBytes := dataURLLen("jpeg", 256<<10)
	join := func(u []string) ([]byte, error) { return []byte(strings.Join(u, "")), nil }
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Fit(context.Background(), []Image{{Data: data, MIME: "image/png"}}, capBytes, join); err != nil {
			b.Fatal(err)
		}
	}
}
