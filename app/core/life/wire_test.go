package life_test

import (
	"context"
	"image"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/body"
	"yui/app/bodyaction"
	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

// wire runs the body_action tool on a push client against a real
// pushserver, in memory.
func wire(t *testing.T, e *env) *pushserver.Server {
	t.Helper()
	srv := pushserver.New(pushserver.Config{Key: "k"})
	c, err := push.New(push.Config{
		Endpoint: func() string { return "http://backend.test" }, Key: func() string { return "k" },
		ChatID: "yui-0000abcd", Tools: []push.Tool{bodyaction.New(e.actor)},
		Handler: transport.HandlerFuncs{}, HTTPClient: pushserver.InMemoryClient(srv),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); srv.Close() })
	c.Start()
	synctest.Wait()
	return srv
}

func TestOverThePushWire(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		srv := wire(t, e)
		res, _, err := srv.CallTool(context.Background(), "yui-0000abcd", "1", bodyaction.Name, map[string]any{"action": "sit_on_window", "app": "xterm"})
		if err != nil || res != bodyaction.OK {
			t.Fatal(res, err)
		}
		if c := e.room.Context("p-1"); c.Posture != "sitting" || c.On != "XTerm" {
			t.Fatalf("%+v", c)
		}
		for args, want := range map[string]map[string]any{
			"error: missing field action":  {},
			"error: missing field app":     {"action": "sit_on_window"},
			"error: missing field side":    {"action": "peek"},
			"error: missing field spot":    {"action": "move_to"},
			"error: invalid field action":  {"action": "fly"},
			"error: invalid field side":    {"action": "peek", "side": "up"},
			"error: invalid field spot":    {"action": "move_to", "spot": "middle"},
			"error: invalid field monitor": {"action": "move_to", "spot": "center", "monitor": -1},
			"error: invalid field app":     {"action": "sit_on_window", "app": " "},
			"error: invalid field speed":   {"action": "stand", "speed": 2},
		} {
			res, _, err := srv.CallTool(context.Background(), "yui-0000abcd", "1", bodyaction.Name, want)
			if err != nil || res != args {
				t.Errorf("%v: %q %v, want %q", want, res, err, args)
			}
		}
	})
}

// TestTheClientWaitsFifteenSeconds: a window she can never reach (it runs
// away faster than she walks) keeps the action running until the client's
// 15 s wait answers it; then she stops where she got to.
func TestTheClientWaitsFifteenSeconds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := newEnv(t)
		srv := wire(t, e)
		stop := make(chan struct{})
		go func() {
			tick := time.NewTicker(16 * time.Millisecond)
			defer tick.Stop()
			x := 300
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					x += 10
					e.desk.move(xterm, image.Pt(x, 500))
				}
			}
		}()
		t0 := time.Now()
		res, _, err := srv.CallTool(context.Background(), "yui-0000abcd", "1", bodyaction.Name, map[string]any{"action": "sit_on_window", "app": "XTerm"})
		took := time.Since(t0)
		close(stop)
		if err != nil || !strings.HasPrefix(res, "error: timed out after 15 s") || took != 15*time.Second {
			t.Fatalf("%q %v after %v", res, err, took)
		}
		synctest.Wait()
		st := e.state()
		if st.Posture != body.Standing || st.Moving || st.Perch != nil {
			t.Fatalf("after the wait: %+v", st)
		}
		n := len(e.pages.Got("shell", "p-1"))
		time.Sleep(time.Second)
		synctest.Wait()
		if len(e.pages.Got("shell", "p-1")) != n || e.desk.live() != 0 {
			t.Fatal("she kept walking after the wait")
		}
	})
}
