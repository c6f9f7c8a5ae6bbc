package browse

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// OpenURL shows an http(s) URL in the user's default browser (the
// desktop's opener, OpenerCommand); it does not wait for the browser. The
// core's own secrets never reach the child: the environment passed on is
// the core's without variables named YUI_*.
func OpenURL(raw string) error {
	u, err := ParseURL(raw)
	if err != nil {
		return err
	}
	name, args := OpenerCommand(u.String())
	cmd := exec.Command(name, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "YUI_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("browse: open %s: %w", u.Host, err)
	}
	go cmd.Wait()
	return nil
}
