package request

import (
	"context"
	"encoding/json"
	"strings"
	"yui/transport"
)

// A round's tool calls: each run by its client tool, its result and images fitted and sent back.

// answer runs a round's calls: cues are answered ok, client tools run
// (one at a time, under their waits) and are reported, other names are the
// backend's tools (answered "error: unknown tool" if a round trip follows).
// It reports whether a client tool ran (worth another round trip).
func (r *run) answer(calls []Call) bool {
	e := r.e
	ran := false
	for i := range calls {
		c := &calls[i]
		if IsCue(c.Name) {
			continue
		}
		tc := transport.ToolCall{ID: c.ID, TurnID: r.id, Name: c.Name, Arguments: c.Arguments}
		if len(tc.Arguments) == 0 || !json.Valid(tc.Arguments) {
			tc.Arguments = json.RawMessage(`{}`)
		}
		tool, ok := e.tools[c.Name]
		if !ok {
			tool, ok = r.more[c.Name]
		}
		switch {
		case c.Refused != "":
			c.Output = c.Refused
			e.log.Warn("tool_call_refused", "turn_id", r.id, "name", c.Name, "reason", c.Refused)
			if !ok {
				continue
			}
			ran = true // the backend hears why its call did not run
		case !ok:
			// Not a client tool: the backend's own (shown in the pill,
			// not run here); a round trip answers it as unknown.
			c.Output = transport.ResultUnknownTool
			continue
		case r.ctx.Err() != nil:
			c.Output = transport.ResultTurnStopped
		default:
			r.pill(tool, c.Name, "running")
			c.Output, c.Images = r.runTool(tool, tc)
			r.pill(tool, c.Name, pillState(c.Output))
			ran = true
		}
		e.emitTool(tc, transport.ToolResult{ID: c.ID, TurnID: r.id, Result: c.Output, Images: c.Images})
	}
	return ran
}

// runTool applies the client's tool rules: Validate first, the tool's
// wait counted from the start, errors as "error: …".
func (r *run) runTool(tool transport.Tool, call transport.ToolCall) (string, []string) {
	if err := tool.Validate(call.Arguments); err != nil {
		return errorResult(err), nil
	}
	wait := tool.Wait()
	if wait <= 0 {
		wait = transport.ClientToolWait(call.Name)
	}
	r.disarm() // the client's own work is no backend silence
	ctx, cancel := context.WithTimeout(r.ctx, wait)
	defer cancel()
	type outcome struct {
		res  string
		imgs []string
		err  error
	}
	out := make(chan outcome, 1)
	go func() {
		res, imgs, err := tool.Run(ctx, call)
		out <- outcome{res, imgs, err}
	}()
	select {
	case o := <-out:
		if o.err != nil {
			if r.ctx.Err() != nil {
				return transport.ResultTurnStopped, nil
			}
			return errorResult(o.err), nil
		}
		return o.res, r.fit(call, o.res, o.imgs)
	case <-ctx.Done():
		if r.ctx.Err() != nil {
			return transport.ResultTurnStopped, nil
		}
		r.e.log.Warn("tool_call_timed_out", "name", call.Name, "wait_ms", wait.Milliseconds())
		return transport.ResultTimedOut(wait), nil
	}
}

// fit keeps a result's images within the turn budget.
func (r *run) fit(call transport.ToolCall, res string, imgs []string) []string {
	if len(imgs) == 0 {
		return nil
	}
	size := 0
	for _, u := range imgs {
		size += len(u) + 3
	}
	room := MaxTurnBytes - len(res) - 1024
	if size <= room {
		return imgs
	}
	if r.e.cfg.ImageFitter != nil {
		if fitted, err := r.e.cfg.ImageFitter.FitImages(imgs, room); err == nil && len(fitted) > 0 {
			return fitted
		}
	}
	r.e.log.Warn("tool_result_images_dropped", "name", call.Name, "images", len(imgs))
	return nil
}

func errorResult(err error) string {
	msg := strings.TrimSpace(err.Error())
	if strings.HasPrefix(msg, "error:") {
		return msg
	}
	return "error: " + msg
}
