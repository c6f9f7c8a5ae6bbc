package jpegfit_test

import (
	"context"
	"encoding/json"
	"fmt"

	"yui/app/jpegfit"
	"yui/app/jpegfit/jpegfittest"
)

// A turn frame with a screenshot, fitted into the backend's max_turn_bytes.
func ExampleFit() {
	type turn struct {
		Type   string   `json:"type"`
		TurnID string   `json:"turn_id"`
		Text   string   `json:"text"`
		Images []string `json:"images,omitempty"`
	}
	frame := turn{Type: "turn", TurnID: "1789365854947", Text: "What is on my screen?"}
	serialize := func(urls []string) ([]byte, error) {
		f := frame
		f.Images = urls
		return json.Marshal(f)
	}
	png, err := jpegfittest.PNG(jpegfittest.Screenshot(1280, 720, 1))
	if err != nil {
		panic(err)
	}
	const maxTurnBytes = 64 << 10
	res, err := jpegfit.Fit(context.Background(), []jpegfit.Image{{Data: png, MIME: "image/png"}}, maxTurnBytes, serialize)
	if err != nil {
		panic(err) // errors.Is(err, jpegfit.ErrTooLarge): send without images / "error: result too large"
	}
	fmt.Println(len(res.Frame) <= maxTurnBytes, res.Images[0].Reencoded, res.URLs[0][:23])
	// Output: true true data:image/jpeg;base64,
}
