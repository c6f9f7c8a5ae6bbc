package jpegfit

import (
	"encoding/json"
	"fmt"
	"image"
	"os"
	"testing"

	"yui/app/jpegfit/jpegfittest"
)

// source is one generated input: its encoded bytes, declared type and the
// pixels the fitter will see after decoding.
type source struct {
	name   string
	data   []byte
	mime   string
	pixels *image.RGBA
}

// sourceSpec describes a generated input.
type sourceSpec struct {
	w, h   int
	format string // png, jpeg, gif or a testdata file name
	seed   uint64
}

func (s sourceSpec) String() string { return fmt.Sprintf("%dx%d.%s#%d", s.w, s.h, s.format, s.seed) }

// sources builds and caches inputs for one test.
type sources map[sourceSpec]source

func (c sources) get(t testing.TB, s sourceSpec) source {
	t.Helper()
	if src, ok := c[s]; ok {
		return src
	}
	var data []byte
	var err error
	mimeType := "image/" + s.format
	if s.w == 0 {
		data, err = os.ReadFile("testdata/" + s.format)
		mimeType = "image/webp"
	} else {
		img := jpegfittest.Screenshot(s.w, s.h, s.seed)
		switch s.format {
		case "png":
			data, err = jpegfittest.PNG(img)
		case "jpeg":
			data, err = jpegfittest.JPEG(img, 90)
		case "gif":
			data, err = jpegfittest.GIF(img)
		default:
			t.Fatalf("unknown format %q", s.format)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	pixels, err := decode(data, mimeType)
	if err != nil {
		t.Fatalf("%v: %v", s, err)
	}
	src := source{name: s.String(), data: data, mime: mimeType, pixels: pixels}
	c[s] = src
	return src
}

// testFrame is a tool_result-like frame the tests serialize.
type testFrame struct {
	Type   string   `json:"type"`
	ID     string   `json:"id"`
	TurnID string   `json:"turn_id"`
	Images []string `json:"images,omitempty"`
	Result string   `json:"result"`
}

func (f testFrame) serializer() Serializer {
	return func(urls []string) ([]byte, error) {
		f.Images = urls
		return json.Marshal(f)
	}
}

func newTestFrame(text string) testFrame {
	return testFrame{Type: "tool_result", ID: "call_7f3a", TurnID: "1789365854947", Result: text}
}
