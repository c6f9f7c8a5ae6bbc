package core

import (
	"os"
	"path/filepath"

	"yui/app/core/archive"
)

// archiveHost is the message window's history room's view of the core.
type archiveHost struct{ c *Core }

// Store is her transcript store (her history); nil when she is not running.
func (h archiveHost) Store(preset string) archive.Store {
	if pt := h.c.pet(preset); pt != nil && pt.tr != nil {
		return pt.tr
	}
	return nil
}

func (h archiveHost) Name(preset string) string {
	if p, ok := h.c.presetNow(preset); ok && p.Name != "" {
		return p.Name
	}
	return "Yui"
}

// ExportDir is the user's Downloads folder when there is one, else an
// "exports" folder in the config directory.
func (h archiveHost) ExportDir() string {
	if home, err := os.UserHomeDir(); err == nil {
		if d := filepath.Join(home, "Downloads"); isDir(d) {
			return d
		}
	}
	d := filepath.Join(h.c.opts.ConfigDir, "exports")
	if err := os.MkdirAll(d, 0o700); err != nil {
		h.c.log.Warn("history_export_dir_failed", "dir", d, "err", err.Error())
	}
	return d
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
