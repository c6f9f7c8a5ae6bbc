package instance

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// leftBehind checks that a killed primary's socket file is still there
// (the next primary removes it: the lock proves its owner is gone).
func leftBehind(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Lstat(address(mustAbs(t, dir))); err != nil {
		t.Fatalf("the killed primary's socket should be left behind: %v", err)
	}
}

func TestLongConfigDirUsesRuntimeDir(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	run := t.TempDir()
	t.Setenv("XDG_RUNTIME_DIR", run)
	p, err := Acquire(long)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if filepath.Dir(p.Addr()) != run {
		t.Fatalf("socket %s, want one in %s", p.Addr(), run)
	}
	p.Serve(func(Request) error { return nil }, nil)
	if _, err := Send(ctx(t), long, nil, false); err != nil {
		t.Fatal(err)
	}
}

func TestSocketIsPrivate(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	fi, err := os.Stat(p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		t.Fatalf("socket mode %v", fi.Mode())
	}
}

// With a long config path and no XDG_RUNTIME_DIR the socket used to be
// /tmp/yui-<uid>-<hash>.sock: a file another user planted there kept Yui
// from starting (issue 23). It now lives in a 0700 directory of its own
// with an unpredictable name, recorded in the config dir; what others
// planted in the temp dir is left alone.
func TestLongConfigDirWithoutRuntimeDirUsesAPrivateDirectory(t *testing.T) {
	tmp := shortTempDir(t)
	t.Setenv("TMPDIR", tmp)
	t.Setenv("XDG_RUNTIME_DIR", "")
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	abs := mustAbs(t, long)
	uid := strconv.Itoa(os.Getuid())
	planted := []string{
		filepath.Join(tmp, "yui-"+uid+"-"+key(abs)+".sock"), // the old name, as a plain file
		filepath.Join(tmp, "yui-"+uid),
	}
	os.WriteFile(planted[0], []byte("not a socket"), 0o644)
	os.Mkdir(planted[1], 0o777)
	if os.Getuid() == 0 {
		// Planted by another user indeed (the tests run as root in CI).
		for _, p := range planted {
			if err := os.Chown(p, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := Acquire(long)
	if err != nil {
		t.Fatalf("Acquire with files planted in the temp dir: %v", err)
	}
	sockDir := filepath.Dir(p.Addr())
	if filepath.Dir(sockDir) != tmp || !strings.HasPrefix(filepath.Base(sockDir), "yui-"+uid+"-") || len(filepath.Base(sockDir)) <= len("yui-"+uid+"-") {
		t.Fatalf("socket %s, want one in a directory of its own in %s", p.Addr(), tmp)
	}
	fi, err := os.Lstat(sockDir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 || int(fi.Sys().(*syscall.Stat_t).Uid) != os.Getuid() {
		t.Fatalf("socket directory %s: %v %v, want a 0700 directory of this user", sockDir, fi.Mode(), err)
	}
	p.Serve(func(Request) error { return nil }, nil)
	if _, err := Send(ctx(t), long, []string{"--settings"}, false); err != nil {
		t.Fatalf("a second launch does not reach the first: %v", err)
	}
	p.Close()
	if _, err := os.Lstat(sockDir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Close left the socket directory: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(abs, addrRecord)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Close left the record: %v", err)
	}
	for _, pl := range planted {
		if _, err := os.Lstat(pl); err != nil {
			t.Fatalf("another user's %s was touched: %v", pl, err)
		}
	}
}

// A primary killed with its socket in a private directory leaves it; the
// next primary removes it and makes its own.
func TestAKilledPrimarysPrivateDirectoryIsRemoved(t *testing.T) {
	t.Setenv("TMPDIR", shortTempDir(t))
	t.Setenv("XDG_RUNTIME_DIR", "")
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	cmd, _ := helper(t, long)
	old := address(mustAbs(t, long))
	if old == "" {
		t.Fatal("no socket recorded")
	}
	cmd.Process.Kill()
	cmd.Wait()
	p, err := Acquire(long)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := os.Lstat(filepath.Dir(old)); !errors.Is(err, os.ErrNotExist) || p.Addr() == old {
		t.Fatalf("the killed primary's directory %s is still there (%v), or reused", filepath.Dir(old), err)
	}
}

// shortTempDir is a temp dir short enough to hold a socket directory (the
// test's own is too long).
func shortTempDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("/tmp", "yt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
