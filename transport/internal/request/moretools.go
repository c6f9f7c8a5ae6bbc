package request

import (
	"strings"

	"yui/transport"
)

// PillTool is a client tool whose runs the pill shows (running, then done
// or failed): a tool of the user's own (MCP) that may take a while. The
// cue tool and the built-in tools are not shown.
type PillTool interface {
	transport.Tool
	ShowInPill() bool
}

// moreTools snapshots the turn's Config.MoreTools (run.more) and returns
// them in order, clashing and blank names left out.
func (r *run) moreTools() []transport.Tool {
	e := r.e
	if e.cfg.MoreTools == nil {
		return nil
	}
	var out []transport.Tool
	r.more = map[string]transport.Tool{}
	for _, t := range e.cfg.MoreTools() {
		n := t.Schema().Name
		if _, clash := e.tools[n]; clash || n == "" || IsCue(n) || r.more[n] != nil {
			e.log.Warn("tool_name_clash", "turn_id", r.id, "name", n)
			continue
		}
		r.more[n] = t
		out = append(out, t)
	}
	return out
}

// pill shows a PillTool's run in the pill.
func (r *run) pill(t transport.Tool, name, state string) {
	if p, ok := t.(PillTool); ok && p.ShowInPill() {
		r.emit(transport.ToolStatus{TurnID: r.id, State: state, ToolID: name})
	}
}

// pillState is the pill's state after a run that answered out.
func pillState(out string) string {
	if strings.HasPrefix(out, "error:") {
		return "failed"
	}
	return "done"
}
