package instance

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"yui/app/atomicfile"
)

// maxSocketPath is the longest unix socket path this package uses (the
// kernel's limit is 107 bytes).
const maxSocketPath = 100

// addrRecord is the file in the config dir naming the socket when it lives
// in a private directory of its own (see bind).
const addrRecord = "instance.addr"

// address is where the core of the config dir abs listens: instance.sock
// in it; when that path is too long for a unix socket,
// yui-<uid>-<hash>.sock in $XDG_RUNTIME_DIR (a private per-user
// directory); without one, the socket in the private directory bind made,
// which the config dir's instance.addr names ("" while there is none).
func address(abs string) string {
	if p, ok := fixedAddress(abs); ok {
		return p
	}
	b, err := os.ReadFile(filepath.Join(abs, addrRecord))
	if err != nil {
		return ""
	}
	p := strings.TrimSpace(string(b))
	if !privateDir(filepath.Dir(p)) {
		return "" // not ours, or gone: nobody to dial there
	}
	return p
}

// fixedAddress is the socket's path when it has a fixed one (in the config
// dir or $XDG_RUNTIME_DIR).
func fixedAddress(abs string) (string, bool) {
	if p := filepath.Join(abs, "instance.sock"); len(p) <= maxSocketPath {
		return p, true
	}
	if dir := os.Getenv("XDG_RUNTIME_DIR"); dir != "" {
		return filepath.Join(dir, "yui-"+strconv.Itoa(os.Getuid())+"-"+key(abs)+".sock"), true
	}
	return "", false
}

// bind is where the primary of abs listens, and what Close removes. With
// no fixed address the socket goes in a directory of its own, made 0700
// under the temp dir with an unpredictable name (os.MkdirTemp), and its
// path is recorded in the config dir: no name in the shared temp dir can
// be taken by another user first (a file planted at a predictable name
// kept Yui from starting; issue 23). The directory a killed primary left
// is removed first (the caller holds the lock, so its owner is gone).
func bind(abs string) (string, func(), error) {
	if p, ok := fixedAddress(abs); ok {
		return p, func() {}, nil
	}
	record := filepath.Join(abs, addrRecord)
	if old := address(abs); old != "" {
		removeSocketDir(old)
	}
	dir, err := os.MkdirTemp(socketBase(), socketDirPrefix())
	if err != nil {
		return "", nil, fmt.Errorf("private socket directory: %w", err)
	}
	p := filepath.Join(dir, "instance.sock")
	if err := atomicfile.Write(record, []byte(p+"\n"), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", nil, err
	}
	return p, func() {
		os.Remove(record)
		removeSocketDir(p)
	}, nil
}

// socketBase is the directory private socket directories are made in: the
// temp dir, or /tmp when its path is too long for a socket below it.
func socketBase() string {
	if base := os.TempDir(); len(base) <= maxSocketPath-40 {
		return base
	}
	return "/tmp"
}

func socketDirPrefix() string { return "yui-" + strconv.Itoa(os.Getuid()) + "-" }

// removeSocketDir removes the socket at p and its directory, when that is
// one bind made (in socketBase, named by socketDirPrefix, private): the
// socket file and the then empty directory, nothing else.
func removeSocketDir(p string) {
	dir := filepath.Dir(p)
	if filepath.Dir(dir) != socketBase() || !strings.HasPrefix(filepath.Base(dir), socketDirPrefix()) || !privateDir(dir) {
		return
	}
	os.Remove(p)
	os.Remove(dir)
}

// privateDir reports whether dir is a directory (not a link) of this user
// that nobody else may enter (0700).
func privateDir(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}

// listen binds the socket, removing one a killed core left (the caller
// holds the lock, so no live core owns it). Close unlinks it.
func listen(addr string) (net.Listener, error) {
	if fi, err := os.Lstat(addr); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s exists and is not a socket", addr)
		}
		if err := os.Remove(addr); err != nil {
			return nil, fmt.Errorf("remove stale socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", addr)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(addr, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}

func dial(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", addr)
}

// checkPeer refuses a connection whose other end is another user's
// process.
func checkPeer(c net.Conn) error {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return errors.New("instance: not a unix socket")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return fmt.Errorf("instance: peer credentials: %w", err)
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return fmt.Errorf("instance: peer credentials: %w", err)
	}
	if cerr != nil {
		return fmt.Errorf("instance: peer credentials: %w", cerr)
	}
	if int(cred.Uid) != os.Getuid() {
		return fmt.Errorf("instance: peer pid %d belongs to uid %d, not %d", cred.Pid, cred.Uid, os.Getuid())
	}
	return nil
}
