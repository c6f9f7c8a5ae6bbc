package console

import (
	"encoding/json"
	"io"
	"sync"
	"time"

	"yui/app/listen"
	"yui/app/permission"
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

// note shows something the console itself says (which thread it made, a
// deleted thread, an unknown agent): --json prints a note object, text
// mode a "-- text" line.
func (p *printer) note(text string) {
	if p.json {
		p.raw(map[string]any{"event": "note", "ts": p.now().UnixMilli(), "text": text})
		return
	}
	p.line("-- " + text)
}

// refuse shows a line the console could not take (an unknown command, an
// unreadable attachment, an answer with no prompt open) as an error_line in
// the composer, as the pet shows a refused input.
func (p *printer) refuse(text string) {
	p.event(session.Event{Kind: session.KindErrorLine, At: p.now(), Text: text, Where: session.WhereComposer})
}

// prompt shows a screen permission prompt: --json prints a
// permission_prompt object, text mode a line naming the answers.
func (p *printer) prompt(pr permission.Prompt) {
	if p.json {
		p.raw(map[string]any{"event": "permission_prompt", "ts": p.now().UnixMilli(), "id": pr.ID,
			"backend": pr.Backend, "monitor": pr.Monitor, "label": pr.Label})
		return
	}
	p.line("? " + pr.Text() + " Answer /allow once, /allow always or /allow deny.")
}

// promptClosed withdraws a prompt that was not answered.
func (p *printer) promptClosed(id uint64) {
	if p.json {
		p.raw(map[string]any{"event": "permission_prompt_closed", "ts": p.now().UnixMilli(), "id": id})
		return
	}
	p.line("? (the screen permission prompt was withdrawn)")
}

// promptAnswered confirms the user's answer to a prompt; it is printed
// once the answer applies, so a call made after it sees the answer.
func (p *printer) promptAnswered(id uint64, c permission.Choice) {
	if p.json {
		p.raw(map[string]any{"event": "permission_answered", "ts": p.now().UnixMilli(), "id": id, "choice": c.String()})
		return
	}
	p.line("? (screen permission: " + c.String() + ")")
}

func (p *printer) raw(m map[string]any) {
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	p.line(string(b))
}

func (p *printer) line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err != nil {
		return
	}
	_, p.err = io.WriteString(p.w, s+"\n")
}

// listenState shows the listening state (--listen): --json prints a
// listen object, text mode a "~ mode" line.
func (p *printer) listenState(st listen.State) {
	if p.json {
		m := map[string]any{"event": "listen", "ts": p.now().UnixMilli(), "mode": st.Mode, "open": st.Open}
		if st.Error != "" {
			m["error"], m["fix"] = st.Error, st.Fix
		}
		p.raw(m)
		return
	}
	line := "~ " + st.Mode
	if st.Error != "" {
		line += ": " + st.Error
	}
	p.line(line)
}
