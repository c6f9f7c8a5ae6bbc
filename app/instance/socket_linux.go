package instance

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// maxSocketPath is the longest unix socket path this package uses (the
// kernel's limit is 107 bytes).
const maxSocketPath = 100

// address is the socket of the config dir abs: instance.sock in it, or,
// when that path is too long for a unix socket, yui-<uid>-<hash>.sock in
// $XDG_RUNTIME_DIR (a private per-user directory), else in the temp dir.
func address(abs string) string {
	p := filepath.Join(abs, "instance.sock")
	if len(p) <= maxSocketPath {
		return p
	}
	dir := os.Getenv("XDG_RUNTIME_DIR")
	if dir == "" {
		dir = os.TempDir()
	}
	return filepath.Join(dir, "yui-"+strconv.Itoa(os.Getuid())+"-"+key(abs)+".sock")
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
