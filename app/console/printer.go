package console

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"yui/app/session"
)

// printer writes events to stdout, one line each, serialised.
type printer struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
	now  func() time.Time
	err  error // the first write error; later writes are skipped
}

func (p *printer) event(e session.Event) {
	var line []byte
	if p.json {
		b, err := json.Marshal(jsonEvent(e))
		if err != nil {
			return
		}
		line = b
	} else {
		s := textEvent(e)
		if s == "" {
			return
		}
		line = []byte(s)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return
	}
	line = append(line, '\n')
	_, p.err = p.w.Write(line)
}

// note shows a console message (a bad command, an unreadable attachment)
// as an error_line in the composer.
func (p *printer) note(text string) {
	p.event(session.Event{Kind: session.KindErrorLine, At: p.now(), Text: text, Where: session.WhereComposer})
}
