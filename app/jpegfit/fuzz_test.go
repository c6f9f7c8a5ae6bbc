package jpegfit

import (
	"context"
	"os"
	"strings"
	"testing"

	"yui/app/jpegfit/jpegfittest"
)

// FuzzDecode: arbitrary bytes under any declared type never panic the
// decoder entry nor Fit, and Fit's frame never exceeds the cap.
func FuzzDecode(f *testing.F) {
	shot := jpegfittest.Screenshot(48, 32, 1)
	for _, enc := range []func() ([]byte, error){
		func() ([]byte, error) { return jpegfittest.PNG(shot) },
		func() ([]byte, error) { return jpegfittest.JPEG(shot, 70) },
		func() ([]byte, error) { return jpegfittest.GIF(shot) },
		func() ([]byte, error) { return os.ReadFile("testdata/video-001.lossy.webp") },
	} {
		data, err := enc()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "", 4096)
		f.Add(data[:len(data)/2], "image/png", 900)
	}
	f.Add([]byte("RIFF\x00\x00\x00\x00WEBPVP8 "), "image/webp", 100)
	f.Add([]byte("GIF89a\xff\xff\xff\xff"), "image/gif", 100)
	f.Fuzz(func(t *testing.T, data []byte, mimeType string, capBytes int) {
		if img, err := decode(data, mimeType); err == nil && img.Rect.Empty() {
			t.Fatal("decode returned an empty image without error")
		}
		capBytes = capBytes%(64<<10) + 64<<10/2
		join := func(u []string) ([]byte, error) { return []byte(strings.Join(u, ",")), nil }
		res, err := Fit(context.Background(), []Image{{Data: data, MIME: mimeType}}, capBytes, join)
		if err == nil && len(res.Frame) > capBytes {
			t.Fatalf("frame %d over cap %d", len(res.Frame), capBytes)
		}
	})
}
