package shell

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// TokenEnv names the variable the core hands a window process its token
// in. Run removes it from the process environment before anything starts
// (Go's os.Unsetenv also clears the C environment that GLib and WebKit
// spawn children with), so nothing the window starts inherits it: WebKit's
// web and network processes, the browser a link opens in.
const TokenEnv = "YUI_CORE_TOKEN"

// childEnv is env without the window's token (whatever else happened, a
// child never gets it).
func childEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, TokenEnv+"=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// opener hands a checked URL to the desktop's opener (browse.OpenerCommand),
// with the token kept out of its environment. Start does not wait for the
// browser; the child is reaped in the background.
type opener struct {
	// command returns the program and arguments that open u.
	command func(u string) (string, []string)
}

func (o opener) open(raw string) error {
	u, err := checkOpenURL(raw)
	if err != nil {
		return err
	}
	name, args := o.command(u)
	cmd := exec.Command(name, args...)
	cmd.Env = childEnv(os.Environ())
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("shell: open %s: %w", logURL(u), err)
	}
	go cmd.Wait()
	return nil
}
