package frontmost

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"
)

// System is the platform's Source: the Windows foreground window.
func System() Source { return &Win32{} }

// Win32 reads the foreground window (GetForegroundWindow) and follows it
// with a WinEvent hook (EVENT_SYSTEM_FOREGROUND, out of context), written
// from the Win32 documentation; built, not run, in this project's CI.
// App is the process's image name without ".exe" (Yui's own windows are
// "yui").
type Win32 struct{}

var (
	user32                       = windows.NewLazySystemDLL("user32.dll")
	procGetWindowTextW           = user32.NewProc("GetWindowTextW")
	procSetWinEventHook          = user32.NewProc("SetWinEventHook")
	procUnhookWinEvent           = user32.NewProc("UnhookWinEvent")
	procGetMessageW              = user32.NewProc("GetMessageW")
	procPostThreadMessageW       = user32.NewProc("PostThreadMessageW")
	procTranslateMessage         = user32.NewProc("TranslateMessage")
	procDispatchMessageW         = user32.NewProc("DispatchMessageW")
	kernel32                     = windows.NewLazySystemDLL("kernel32.dll")
	procGetCurrentThreadID       = kernel32.NewProc("GetCurrentThreadId")
	procQueryFullProcessImageNmW = kernel32.NewProc("QueryFullProcessImageNameW")
)

const (
	eventSystemForeground = 0x0003
	winEventOutOfContext  = 0x0000
	winEventSkipOwnProc   = 0x0002
	wmQuit                = 0x0012
)

// Active returns the foreground window.
func (*Win32) Active() (Window, bool) {
	h := windows.GetForegroundWindow()
	if h == 0 {
		return Window{}, false
	}
	buf := make([]uint16, 512)
	n, _, _ := procGetWindowTextW.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	var pid uint32
	windows.GetWindowThreadProcessId(h, &pid)
	return Window{ID: uint32(h), App: imageName(pid), Title: windows.UTF16ToString(buf[:n])}, true
}

// imageName is the process's executable name without its extension.
func imageName(pid uint32) string {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(p)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	size := uint32(len(buf))
	if r, _, _ := procQueryFullProcessImageNmW.Call(uintptr(p), 0, uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&size))); r == 0 {
		return ""
	}
	base := filepath.Base(windows.UTF16ToString(buf[:size]))
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// msg is MSG (winuser.h); Go lays it out as C does.
type msg struct {
	hwnd     uintptr
	message  uint32
	wParam   uintptr
	lParam   uintptr
	time     uint32
	pt       [2]int32
	lPrivate uint32
}

// The hook's callback is made once (Go cannot free callbacks); it calls
// whichever watcher is current. One Watch runs at a time per process (the
// core has one tracker).
var (
	hookOnce    sync.Once
	hookCB      uintptr
	hookMu      sync.Mutex
	hookChanged func()
)

// Watch calls changed on every foreground change until ctx ends. The hook
// and its message loop live on one locked OS thread, as WinEvent hooks
// require.
func (*Win32) Watch(ctx context.Context, changed func()) error {
	hookOnce.Do(func() {
		hookCB = windows.NewCallback(func(hook, event, hwnd, idObject, idChild, thread, time uintptr) uintptr {
			hookMu.Lock()
			f := hookChanged
			hookMu.Unlock()
			if f != nil {
				f()
			}
			return 0
		})
	})
	hookMu.Lock()
	hookChanged = changed
	hookMu.Unlock()
	defer func() {
		hookMu.Lock()
		hookChanged = nil
		hookMu.Unlock()
	}()
	errc := make(chan error, 1)
	tid := make(chan uintptr, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		id, _, _ := procGetCurrentThreadID.Call()
		hook, _, err := procSetWinEventHook.Call(eventSystemForeground, eventSystemForeground, 0, hookCB, 0, 0,
			winEventOutOfContext|winEventSkipOwnProc)
		if hook == 0 {
			errc <- fmt.Errorf("frontmost: SetWinEventHook: %w", err)
			tid <- 0
			return
		}
		defer procUnhookWinEvent.Call(hook)
		tid <- id
		var m msg
		for {
			r, _, _ := procGetMessageW.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0)
			if int32(r) <= 0 { // WM_QUIT or an error
				errc <- nil
				return
			}
			procTranslateMessage.Call(uintptr(unsafe.Pointer(&m)))
			procDispatchMessageW.Call(uintptr(unsafe.Pointer(&m)))
		}
	}()
	id := <-tid
	if id == 0 {
		return <-errc
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		procPostThreadMessageW.Call(id, wmQuit, 0, 0)
		<-errc
		return nil
	}
}
