package instance

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// address is the named pipe of the config dir abs, per user:
// \\.\pipe\yui-<hash of the lower-cased path and the user's SID>.
func address(abs string) string {
	return `\\.\pipe\yui-` + key(strings.ToLower(abs)+"|"+userSID())
}

func userSID() string {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return ""
	}
	return u.User.Sid.String()
}

// listen creates the pipe. Its DACL grants the current user alone (no
// other user, not even administrators, may connect); go-winio creates the
// first instance with FILE_FLAG_FIRST_PIPE_INSTANCE, so a pipe someone
// else made first makes this fail instead of sharing the name.
func listen(addr string) (net.Listener, error) {
	sid := userSID()
	if sid == "" {
		return nil, fmt.Errorf("cannot read the current user's SID")
	}
	return winio.ListenPipe(addr, &winio.PipeConfig{
		SecurityDescriptor: "D:P(A;;GA;;;" + sid + ")",
		InputBufferSize:    MaxRequest,
		OutputBufferSize:   4096,
	})
}

func dial(ctx context.Context, addr string) (net.Conn, error) {
	return winio.DialPipeContext(ctx, addr)
}

// checkPeer: the pipe's DACL already admits only the current user.
func checkPeer(net.Conn) error { return nil }
