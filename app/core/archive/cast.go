package archive

import (
	"log/slog"
	"os"
	"path/filepath"

	"yui/app/settings"
)

// Cast is the Host the core gives the room: the running characters'
// histories, their saved names, the config directory.
type Cast struct {
	// History is preset's transcript store while she runs (ok false: none).
	History  func(preset string) (Store, bool)
	Settings interface{ Get() settings.Settings }
	// ConfigDir holds the "exports" folder when there is no Downloads.
	ConfigDir string
	Logger    *slog.Logger
}

// Store is her transcript store (her history); nil when she is not running.
func (c Cast) Store(preset string) Store {
	if s, ok := c.History(preset); ok {
		return s
	}
	return nil
}

// Name is her saved name, "Yui" when she has none.
func (c Cast) Name(preset string) string {
	all := c.Settings.Get()
	if p, ok := all.Preset(preset); ok && p.Name != "" {
		return p.Name
	}
	return "Yui"
}

// ExportDir is the user's Downloads folder when there is one, else an
// "exports" folder in the config directory.
func (c Cast) ExportDir() string {
	if home, err := os.UserHomeDir(); err == nil {
		if d := filepath.Join(home, "Downloads"); isDir(d) {
			return d
		}
	}
	d := filepath.Join(c.ConfigDir, "exports")
	if err := os.MkdirAll(d, 0o700); err != nil {
		c.Logger.Warn("history_export_dir_failed", "dir", d, "err", err.Error())
	}
	return d
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

var _ Host = Cast{}
