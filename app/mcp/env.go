package mcp

import (
	"os"
	"runtime"
	"strings"
)

// keptEnv are the variables a stdio server inherits: what a program needs
// to find itself and its files, nothing that could hold a key.
var keptEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR", "TZ",
	// Windows
	"SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "TEMP", "TMP", "USERPROFILE", "APPDATA", "LOCALAPPDATA", "PROGRAMDATA"}

// cleanEnv is a stdio server's environment: keptEnv from Yui's own, no
// other variable (no YUI_*, no *_KEY, no token).
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		for _, want := range keptEnv {
			if k == want || (runtime.GOOS == "windows" && strings.EqualFold(k, want)) {
				env = append(env, kv)
				break
			}
		}
	}
	return env
}
