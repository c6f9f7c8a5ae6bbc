package demobackend_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/bodyaction"
	"yui/transport"
	"yui/transport/push"
)

// bodyCalls records body_action's arguments and answers ok.
type bodyCalls struct {
	mu   sync.Mutex
	args []string
}

func (b *bodyCalls) tool() push.Tool {
	return transport.ToolFunc{Name: bodyaction.Name, Parameters: json.RawMessage(bodyaction.Parameters),
		RunFunc: func(_ context.Context, call transport.ToolCall) (string, []string, error) {
			b.mu.Lock()
			b.args = append(b.args, string(call.Arguments))
			b.mu.Unlock()
			return bodyaction.OK, nil, nil
		}}
}

func TestBodyTriggersCallBodyAction(t *testing.T) {
	calls := &bodyCalls{}
	perch := lookTool(func(at string) (string, []string) {
		return `{"windows":[{"app":"Firefox"},{"app":"XTerm"}],"edges":[]}`, nil
	})
	run(t, envOpt{tools: []push.Tool{calls.tool(), perch}}, func(e *env) {
		e.take()
		for i, text := range []string{"Sit on the terminal, please", "peek left", "go to the top-right!", "go to bed", "stand up", "sit on firefox"} {
			e.turn(string(rune('1'+i)), text)
			e.after(10 * time.Second)
		}
		calls.mu.Lock()
		got := strings.Join(calls.args, "\n")
		calls.mu.Unlock()
		want := strings.Join([]string{
			`{"action":"sit_on_window","app":"XTerm"}`,
			`{"action":"peek","side":"left"}`,
			`{"action":"move_to","spot":"top-right"}`,
			`{"action":"go_to_bed"}`,
			`{"action":"stand"}`,
			`{"action":"sit_on_window","app":"firefox"}`,
		}, "\n")
		if got != want {
			t.Fatalf("body_action calls\n%s\nwant\n%s", got, want)
		}
		if lines := strings.Join(e.take(), "\n"); !strings.Contains(lines, `"Comfy up here!"`) || !strings.Contains(lines, `"Peekaboo!"`) {
			t.Fatalf("replies:\n%s", lines)
		}
	})
}

func TestBodyTriggerWithoutTheTool(t *testing.T) {
	run(t, envOpt{}, func(e *env) {
		e.take()
		e.turn("1", "go to bed")
		e.after(10 * time.Second)
		if lines := strings.Join(e.take(), "\n"); !strings.Contains(lines, "This window gave me no body to move.") {
			t.Fatalf("replies:\n%s", lines)
		}
	})
}
