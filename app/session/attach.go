package session

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"yui/app/clientctx"
	"yui/transport/dataurl"
)

// attachment is an image the user attached for the next typed turn.
type attachment struct {
	mime string
	data []byte
}

// dataURL encodes the attachment as the turn.images element.
func (a attachment) dataURL() string {
	return dataurl.Encode(a.mime, a.data)
}

// attachableTypes are the image types the JPEG fitter reads.
var attachableTypes = []string{"image/png", "image/jpeg", "image/gif", "image/webp"}

// Attach reads an image file and keeps it for the next typed turn. The
// images go in turn.images after the turn's screenshot, fitted into the
// backend's max_turn_bytes (see images.go); a backend that stated none
// refuses the turn with an error_line. Safe from any goroutine.
func (s *Session) Attach(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("session: attach: %w", err)
	}
	if err := s.AttachData(data); err != nil {
		return fmt.Errorf("session: attach %s: %w", path, err)
	}
	return nil
}

// AttachData keeps image bytes (sniffed, not trusted from a name) for the
// next typed turn, like Attach: PNG, JPEG, GIF or WebP. Safe from any
// goroutine.
func (s *Session) AttachData(data []byte) error {
	a, err := sniffAttachment(data)
	if err != nil {
		return fmt.Errorf("session: attach: %w", err)
	}
	s.postUser(func() { s.st.attachments = append(s.st.attachments, a) })
	return nil
}

// SendTyped sends what the user typed in the composer together with the
// images attached to it, as one turn (images after any attached earlier
// with Attach). Every image is checked before anything is queued: one
// refused image refuses the whole message, and nothing is kept for later.
// Text may be empty when images go with it. It returns the turn id ("" when
// there is nothing to send). Safe from any goroutine.
func (s *Session) SendTyped(text string, images [][]byte) (string, error) {
	atts := make([]attachment, 0, len(images))
	for i, d := range images {
		a, err := sniffAttachment(d)
		if err != nil {
			return "", fmt.Errorf("session: image %d: %w", i+1, err)
		}
		atts = append(atts, a)
	}
	text = strings.TrimSpace(text)
	if text == "" && len(atts) == 0 {
		return "", nil
	}
	id := s.ids.Next()
	s.postUser(func() {
		s.st.attachments = append(s.st.attachments, atts...)
		s.stopSpeech(actionTurn)
		s.startTurn(id, text, fromTyped, clientctx.FromUser())
	})
	return id, nil
}

// sniffAttachment types image bytes by their content, not a name.
func sniffAttachment(data []byte) (attachment, error) {
	mime := http.DetectContentType(data)
	if i := strings.IndexByte(mime, ';'); i >= 0 {
		mime = mime[:i]
	}
	if !slices.Contains(attachableTypes, mime) {
		return attachment{}, fmt.Errorf("not a PNG, JPEG, GIF or WebP image (%s)", mime)
	}
	return attachment{mime: mime, data: data}, nil
}

// takeAttachments hands a typed turn the pending attachments. They are
// used up either way; false (with an error_line) refuses a turn whose
// images the backend does not accept.
func (s *Session) takeAttachments(o origin) ([]attachment, bool) {
	if o != fromTyped || len(s.st.attachments) == 0 {
		return nil, true
	}
	atts := s.st.attachments
	s.st.attachments = nil
	if !s.tr.Capabilities().Images && s.ready() {
		s.emit(ErrorLine{Text: s.lines.ImagesRefused, Where: WhereComposer})
		return nil, false
	}
	return atts, true
}
