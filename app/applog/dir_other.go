//go:build !windows

package applog

import (
	"os"
	"path/filepath"
)

// DefaultDir returns the log directory: $XDG_STATE_HOME/yui/logs, else
// ~/.local/state/yui/logs.
func DefaultDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "yui", "logs")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "yui-logs")
	}
	return filepath.Join(home, ".local", "state", "yui", "logs")
}
