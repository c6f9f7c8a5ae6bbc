package keyarg_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"yui/app/keyarg"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestKeyFileIsReadAndTrimmed(t *testing.T) {
	p := filepath.Join(t.TempDir(), "key")
	os.WriteFile(p, []byte("  sk-from-file\n"), 0o600)
	var warn strings.Builder
	k, src, err := keyarg.Resolve(keyarg.Flags{KeyFile: p}, env(map[string]string{keyarg.EnvVar: "sk-env"}), &warn)
	if err != nil || k != "sk-from-file" || src != keyarg.File {
		t.Fatalf("got %q %q %v", k, src, err)
	}
	if warn.Len() != 0 {
		t.Fatalf("warned: %s", warn.String())
	}
}

func TestEnvironmentKeyWhenNoFlag(t *testing.T) {
	var warn strings.Builder
	k, src, err := keyarg.Resolve(keyarg.Flags{}, env(map[string]string{keyarg.EnvVar: "sk-env\n"}), &warn)
	if err != nil || k != "sk-env" || src != keyarg.Env || warn.Len() != 0 {
		t.Fatalf("got %q %q %v %q", k, src, err, warn.String())
	}
	k, src, err = keyarg.Resolve(keyarg.Flags{}, env(nil), &warn)
	if err != nil || k != "" || src != keyarg.None {
		t.Fatalf("no key anywhere: %q %q %v", k, src, err)
	}
}

func TestKeyFlagStillWorksButWarns(t *testing.T) {
	var warn strings.Builder
	k, src, err := keyarg.Resolve(keyarg.Flags{Key: "sk-argv"}, env(nil), &warn)
	if err != nil || k != "sk-argv" || src != keyarg.Flag {
		t.Fatalf("got %q %q %v", k, src, err)
	}
	if !strings.Contains(warn.String(), "--key-file") || strings.Contains(warn.String(), "sk-argv") {
		t.Fatalf("warning %q", warn.String())
	}
}

func TestBadKeyFilesAreClearErrors(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	two := filepath.Join(dir, "two")
	os.WriteFile(two, []byte("a\nb\n"), 0o600)
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte(strings.Repeat("k", keyarg.MaxFileBytes+1)), 0o600)
	for name, f := range map[string]keyarg.Flags{
		"missing": {KeyFile: filepath.Join(dir, "nope")}, "empty": {KeyFile: empty}, "two lines": {KeyFile: two},
		"too big": {KeyFile: big}, "directory": {KeyFile: dir},
	} {
		if _, _, err := keyarg.Resolve(f, env(nil), &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "key file") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, _, err := keyarg.Resolve(keyarg.Flags{Key: "a", KeyFile: empty}, env(nil), &strings.Builder{}); !errors.Is(err, keyarg.ErrBoth) {
		t.Errorf("both flags: %v", err)
	}
}

func TestAKeyFileOthersCanReadEarnsAWarning(t *testing.T) {
	p := filepath.Join(t.TempDir(), "key")
	os.WriteFile(p, []byte("sk"), 0o644)
	os.Chmod(p, 0o644)
	var warn strings.Builder
	if k, _, err := keyarg.Resolve(keyarg.Flags{KeyFile: p}, env(nil), &warn); err != nil || k != "sk" {
		t.Fatal(k, err)
	}
	if !strings.Contains(warn.String(), "readable by other users") {
		t.Fatalf("warning %q", warn.String())
	}
}
