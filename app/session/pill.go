package session

import (
	"slices"
	"time"

	"yui/transport"
)

// clientRunTool is the tool the client declares and runs itself; a
// backend tool_status naming it leaves the pill alone.
const clientRunTool = "browser"

// pillState is the status pill's tool segment.
type pillState struct {
	cur   *ToolPill
	timer *time.Timer
	seq   uint64
}

func (p *pillState) stop() {
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.seq++
}

// setPill shows v in the tool segment (nil clears it). A done or failed
// state is held PillHold, then cleared.
func (s *Session) setPill(v *ToolPill) {
	p := &s.st.pill
	p.stop()
	if v == nil && p.cur == nil {
		return
	}
	p.cur = v
	s.emit(Event{Kind: KindPill, Tool: v})
	if v == nil || v.State == "running" {
		return
	}
	seq := p.seq
	p.timer = time.AfterFunc(PillHold, func() {
		s.post(func() {
			if s.st.pill.seq == seq {
				s.setPill(nil)
			}
		})
	})
}

// declares reports whether the session declared a tool by that name.
func (s *Session) declares(name string) bool {
	return slices.Contains(s.opts.Declared, name)
}

// onToolStatus shows a backend tool's state. Stopped turns' frames are
// dropped; a tool the client runs itself leaves the pill alone; another
// turn's tool shows without a phrase and speaks nothing.
func (s *Session) onToolStatus(ts transport.ToolStatus) {
	t := s.turnFor(ts.TurnID, true)
	if t != nil && t.stopped {
		s.log.Info(s.logName("tool_status"), "turn_id", ts.TurnID, "dropped", Dropped, "stopped_count", s.stoppedCount())
		return
	}
	s.log.Info(s.logName("tool_status"), "turn_id", ts.TurnID, "state", ts.State, "tool_id", ts.ToolID)
	if ts.ToolID == clientRunTool && s.declares(ts.ToolID) {
		return
	}
	own := t != nil && t.origin.sent()
	v := &ToolPill{TurnID: ts.TurnID, ToolID: ts.ToolID, State: ts.State}
	if own {
		v.Phrase = s.lines.phrase(ts.ToolID)
	}
	s.setPill(v)
	if own && ts.State == "running" && t.running && !t.rendered && !t.toolFiller {
		t.toolFiller = true
		s.sayFiller(t, s.lines.Tool)
	}
}
