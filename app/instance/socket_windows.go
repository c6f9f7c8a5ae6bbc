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

// bind is where the primary of abs listens; the pipe needs no cleanup.
func bind(abs string) (string, func(), error) { return address(abs), func() {}, nil }

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
	ln, err := winio.ListenPipe(addr, &winio.PipeConfig{
		SecurityDescriptor: "D:P(A;;GA;;;" + sid + ")",
		InputBufferSize:    MaxRequest,
		OutputBufferSize:   4096,
	})
	if err != nil {
		return nil, err
	}
	takeFirstInstance(addr)
	return ln, nil
}

// takeFirstInstance connects once to the pipe instance go-winio makes to
// hold the name and never accepts on. Windows 10 gives a client the
// instance an Accept waits on; Windows 7 and Wine give the first one made,
// where a hand-over would hang unanswered until IOTimeout (go-winio issues
// 173 and 313; seen under Wine, docs/windows.md). Connected once and
// closed, that instance takes no other client. Best effort: an error here
// changes nothing on a system that does not need it.
func takeFirstInstance(addr string) {
	name, err := windows.UTF16PtrFromString(addr)
	if err != nil {
		return
	}
	h, err := windows.CreateFile(name, 0, 0, nil, windows.OPEN_EXISTING, windows.SECURITY_SQOS_PRESENT|windows.SECURITY_ANONYMOUS, 0)
	if err == nil {
		windows.CloseHandle(h)
	}
}

func dial(ctx context.Context, addr string) (net.Conn, error) {
	return winio.DialPipeContext(ctx, addr)
}

// checkPeer: the pipe's DACL already admits only the current user.
func checkPeer(net.Conn) error { return nil }
