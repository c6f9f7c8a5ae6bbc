package dataurl

import (
	"bytes"
	"errors"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	data := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 3, 4}
	u := Encode("image/png", data)
	if u != "data:image/png;base64,iVBORwABAgME" {
		t.Fatalf("encoded %q", u)
	}
	if Len("image/png", len(data)) != len(u) {
		t.Fatalf("Len %d, URL %d", Len("image/png", len(data)), len(u))
	}
	mime, got, err := Decode(u)
	if err != nil || mime != "image/png" || !bytes.Equal(got, data) {
		t.Fatalf("decoded %q %v %v", mime, got, err)
	}
	if mime, payload, err := Split(u); err != nil || mime != "image/png" || payload != "iVBORwABAgME" {
		t.Fatalf("split %q %q %v", mime, payload, err)
	}
}

func TestDecodeRefusesWhatIsNotABase64DataURL(t *testing.T) {
	for u, want := range map[string]error{
		"http://example.com/x.png":       ErrNotDataURL,
		"data:image/png,plain":           ErrNotBase64,
		"data:image/png;base64":          ErrNotBase64,
		"data:image/png;base64,!!notb64": ErrBadBase64,
	} {
		if _, _, err := Decode(u); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", u, err, want)
		}
	}
}
