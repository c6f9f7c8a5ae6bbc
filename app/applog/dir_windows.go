package applog

import (
	"os"
	"path/filepath"
)

// DefaultDir returns the log directory: %LOCALAPPDATA%\yui\logs (logs stay
// on this machine: not in the roaming profile, where the settings are),
// else the temp dir's yui-logs.
func DefaultDir() string {
	if d, err := os.UserCacheDir(); err == nil { // %LocalAppData%
		return filepath.Join(d, "yui", "logs")
	}
	return filepath.Join(os.TempDir(), "yui-logs")
}
