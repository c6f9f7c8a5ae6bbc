package threads

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // attachment sizes
	_ "image/jpeg" // attachment sizes
	_ "image/png"  // attachment sizes
	"strings"

	_ "golang.org/x/image/webp" // attachment sizes

	"yui/transport"
)

// MaxTurnBytes is the largest POST …/messages body a turn makes: the
// session fits the screenshot and attachments into it with the JPEG
// fitter. 2 MiB of JSON holds at most 1.5 MiB of image bytes, so no image
// reaches the runtime's 2 MB threshold past which it re-encodes images
// itself (and never the size limits of a Worker request).
const MaxTurnBytes = 2 << 20

// Content is a turn's message text: the client_context block, a blank
// line, then the utterance (either alone when the other is empty). The
// runtime keeps it as the user message, so the model sees the block with
// the words it belongs to.
func Content(t transport.Turn) string {
	return transport.ContextInput(strings.TrimSpace(t.ClientContext), strings.TrimSpace(t.Text))
}

// encodeTurn is the POST body of a turn: role user, the content, and the
// images as attachments (the screenshot first, as the session orders
// them).
func encodeTurn(t transport.Turn) ([]byte, error) {
	body := Send{Role: "user", Content: Content(t)}
	shot := strings.Contains(t.ClientContext, "\nscreenshot: ")
	for i, u := range t.Images {
		a, err := attachment(u)
		if err != nil {
			return nil, fmt.Errorf("threads: image %d: %w", i+1, err)
		}
		ext := strings.TrimPrefix(a.MimeType, "image/")
		if ext == "jpeg" {
			ext = "jpg"
		}
		switch {
		case i == 0 && shot:
			a.Name = "screenshot." + ext
		default:
			a.Name = fmt.Sprintf("image-%d.%s", i+1, ext)
		}
		body.Attachments = append(body.Attachments, a)
	}
	return json.Marshal(body)
}

// attachment reads a data:image/…;base64 URL into an attachment with the
// image's size when its header can be read.
func attachment(u string) (Attachment, error) {
	rest, ok := strings.CutPrefix(u, "data:")
	if !ok {
		return Attachment{}, fmt.Errorf("not a data URL")
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		return Attachment{}, fmt.Errorf("not a base64 data URL")
	}
	mime := strings.ToLower(strings.TrimSuffix(meta, ";base64"))
	if !strings.HasPrefix(mime, "image/") {
		return Attachment{}, fmt.Errorf("%q is not an image type", mime)
	}
	a := Attachment{MimeType: mime, Data: data}
	// The header is at the start: decode a prefix only.
	n := min(len(data), 64<<10) / 4 * 4
	if head, err := base64.StdEncoding.DecodeString(data[:n]); err == nil {
		if c, _, err := image.DecodeConfig(bytes.NewReader(head)); err == nil {
			a.Width, a.Height = c.Width, c.Height
		}
	}
	return a, nil
}
