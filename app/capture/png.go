package capture

import (
	"bytes"
	"fmt"
	"image/png"

	"yui/transport/dataurl"
)

// PNG encodes the shot losslessly, favouring speed over size (the JPEG
// fitter re-encodes it when it does not fit the frame).
func (s Shot) PNG() ([]byte, error) {
	if s.Image == nil {
		return nil, fmt.Errorf("capture: encode monitor %d: no image", s.Monitor.Index)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, s.Image); err != nil {
		return nil, fmt.Errorf("capture: encode monitor %d: %w", s.Monitor.Index, err)
	}
	return buf.Bytes(), nil
}

// DataURL is the PNG as a data:image/png;base64 URL.
func (s Shot) DataURL() (string, error) {
	b, err := s.PNG()
	if err != nil {
		return "", err
	}
	return dataurl.Encode("image/png", b), nil
}
