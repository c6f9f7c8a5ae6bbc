package settings

import (
	"fmt"
	"os"
	"path/filepath"
)

// DefaultDir is the config directory when none is given: os.UserConfigDir()
// + "yui" — ~/.config/yui (or $XDG_CONFIG_HOME/yui) on Linux,
// %APPDATA%\yui on Windows. It fails only when the OS names no config
// directory (no $HOME, no %APPDATA%).
func DefaultDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("settings: no config directory: %w", err)
	}
	return filepath.Join(base, "yui"), nil
}
