package session

import (
	"context"
	"errors"
	"image"

	"yui/app/clientctx"
	"yui/app/jpegfit"
	"yui/transport"
)

// TurnScreenshot is the per-turn screenshot the Options.Screenshot hook
// takes: its pixels (or image bytes: PNG, JPEG, GIF or WebP) and where they
// came from.
type TurnScreenshot struct {
	Monitor int
	Label   string      // e.g. DP-1; "" when unknown
	Pixels  *image.RGBA // the capture as it is (fitted from memory); or
	Data    []byte      // encoded image bytes (PNG, JPEG…), when Pixels is nil
}

// turnImages are the images of one turn frame, before fitting.
type turnImages struct {
	shot *TurnScreenshot
	atts []attachment
}

// screenshot calls the hook; nil when there is none this turn.
func (s *Session) screenshot() *TurnScreenshot {
	if s.opts.Screenshot == nil {
		return nil
	}
	shot, ok := s.opts.Screenshot()
	if !ok {
		return nil
	}
	return &shot
}

// screenshotLine is the block's screenshot line for shot.
func screenshotLine(shot *TurnScreenshot) *clientctx.Screenshot {
	if shot == nil {
		return nil
	}
	return &clientctx.Screenshot{Monitor: shot.Monitor, Label: shot.Label}
}

// errImagesUnfit marks a turn whose attachments cannot be sent.
var errImagesUnfit = errors.New("session: images do not fit the turn frame")

// fitTurn puts the turn's images into f.Images: the screenshot first, then
// the attachments, fitted with jpegfit so the serialized frame fits the
// backend's max_turn_bytes. A backend that stated none gets no screenshot
// pixels (the attachments go as they are, so SendTurn refuses them as the
// spec's network failure or ErrImagesNotAccepted). A screenshot that
// cannot fit is dropped (the returned frame has no screenshot line: rebuild
// is called); attachments that cannot fit fail with errImagesUnfit.
func (s *Session) fitTurn(f transport.Turn, imgs turnImages, rebuild func(withShot bool) string) (transport.Turn, error) {
	caps := s.tr.Capabilities()
	if !caps.Images {
		for _, a := range imgs.atts {
			f.Images = append(f.Images, a.dataURL())
		}
		return f, nil
	}
	var in []jpegfit.Image
	if imgs.shot != nil {
		in = append(in, jpegfit.Image{Data: imgs.shot.Data, Pixels: imgs.shot.Pixels})
	}
	for _, a := range imgs.atts {
		in = append(in, jpegfit.Image{Data: a.data, MIME: a.mime})
	}
	if len(in) == 0 {
		return f, nil
	}
	serialize := func(urls []string) ([]byte, error) {
		g := f
		g.Images = urls
		return s.tr.EncodeTurn(g)
	}
	mtb := caps.MaxTurnBytes
	res, err := jpegfit.Fit(context.Background(), in, mtb, serialize)
	if err == nil {
		f.Images = res.URLs
		reencoded := 0
		for _, o := range res.Images {
			if o.Reencoded {
				reencoded++
			}
		}
		s.log.Info("turn.images_fitted", "turn_id", f.TurnID, "images", len(in), "reencoded", reencoded,
			"bytes", len(res.Frame), "cap", mtb)
		return f, nil
	}
	s.log.Warn("turn.images_unfit", "turn_id", f.TurnID, "images", len(in), "cap", mtb, "err", err.Error())
	if imgs.shot == nil {
		return f, errImagesUnfit
	}
	// Drop the screenshot and its line; try the attachments alone.
	f.ClientContext = rebuild(false)
	return s.fitTurn(f, turnImages{atts: imgs.atts}, rebuild)
}
