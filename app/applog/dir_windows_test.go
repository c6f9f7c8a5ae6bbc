package applog

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The logs live in %LOCALAPPDATA%\yui\logs on Windows (they stay on the
// machine; the settings roam), and a day's file is written there: run
// under Wine by make wine-test (docs/windows.md).
func TestLogsLiveInLocalAppData(t *testing.T) {
	local := t.TempDir()
	t.Setenv("LOCALAPPDATA", local)
	dir := DefaultDir()
	if want := filepath.Join(local, "yui", "logs"); dir != want {
		t.Fatalf("DefaultDir = %s, want %s", dir, want)
	}
	f := NewDailyFile(dir, AppLogPrefix, nil)
	New(f, slog.LevelInfo).Info("core_ready", "version", "test")
	f.Close()
	files, _ := filepath.Glob(filepath.Join(dir, AppLogPrefix+"-*.log"))
	if len(files) != 1 {
		t.Fatalf("log files %v", files)
	}
	b, _ := os.ReadFile(files[0])
	if !strings.Contains(string(b), `"event":"core_ready"`) {
		t.Fatalf("log %s", b)
	}
}
