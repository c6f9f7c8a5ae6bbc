package gaze

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// System is the desktop's pointer on Windows: a low-level mouse hook
// (WH_MOUSE_LL) says when it moves, GetCursorPos where it is.
func System() Source { return &hookSource{} }

// hookSource watches the pointer with a WH_MOUSE_LL hook on a thread of
// its own. Windows calls the hook on that thread, from its message loop,
// for every mouse event on the desktop (nothing while the mouse is
// still); the hook only wakes the goroutine that calls moved, so it
// returns at once (Windows drops a hook that is slow to return).
type hookSource struct {
	// installed, when set (tests), is called once the hook is in place.
	installed func()
}

var (
	user32                  = windows.NewLazySystemDLL("user32.dll")
	procSetWindowsHookExW   = user32.NewProc("SetWindowsHookExW")
	procUnhookWindowsHookEx = user32.NewProc("UnhookWindowsHookEx")
	procCallNextHookEx      = user32.NewProc("CallNextHookEx")
	procGetMessageW         = user32.NewProc("GetMessageW")
	procPeekMessageW        = user32.NewProc("PeekMessageW")
	procPostThreadMessageW  = user32.NewProc("PostThreadMessageW")
	procGetCursorPos        = user32.NewProc("GetCursorPos")
)

const (
	whMouseLL   = 14
	wmQuit      = 0x0012
	wmMouseMove = 0x0200
	pmNoRemove  = 0
)

// winMsg is Windows' MSG.
type winMsg struct {
	hwnd    uintptr
	message uint32
	wParam  uintptr
	lParam  uintptr
	time    uint32
	pt      struct{ x, y int32 }
	private uint32
}

// hooked maps a hook thread's id to the channel its hook wakes. The hook
// procedure is one callback for the process (a callback made by
// syscall.NewCallback is never freed, and a process may make only a few
// thousand), so it finds its watch by the thread it runs on.
var (
	hookedMu sync.Mutex
	hooked   = map[uint32]chan struct{}{}
	hookProc = syscall.NewCallback(mouseHook)
)

// mouseHook is the WH_MOUSE_LL procedure: a move wakes the watch of this
// thread; every event goes on to the next hook unchanged.
func mouseHook(code, wParam, lParam uintptr) uintptr {
	if int32(code) >= 0 && wParam == wmMouseMove {
		hookedMu.Lock()
		kick := hooked[windows.GetCurrentThreadId()]
		hookedMu.Unlock()
		if kick != nil {
			select {
			case kick <- struct{}{}:
			default: // a wake-up is already waiting; it reads the newest position
			}
		}
	}
	r, _, _ := procCallNextHookEx.Call(0, code, wParam, lParam)
	return r
}

// Watch installs the hook and calls moved after each move until ctx ends
// (then it returns nil) or the hook cannot be installed.
func (s *hookSource) Watch(ctx context.Context, moved func()) error {
	kick := make(chan struct{}, 1)
	threadID := make(chan uint32, 1)
	ended := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		ended <- hookLoop(kick, threadID)
	}()
	var tid uint32
	select {
	case tid = <-threadID:
	case err := <-ended:
		return err
	}
	if s.installed != nil {
		s.installed()
	}
	for {
		select {
		case <-kick:
			moved()
		case err := <-ended:
			return err
		case <-ctx.Done():
			procPostThreadMessageW.Call(uintptr(tid), wmQuit, 0, 0)
			<-ended
			return nil
		}
	}
}

// hookLoop runs on a locked OS thread: it gives the thread a message
// queue, installs the hook, says the thread's id, and pumps messages
// (which is when Windows calls the hook) until WM_QUIT.
func hookLoop(kick chan struct{}, threadID chan<- uint32) error {
	tid := windows.GetCurrentThreadId()
	var m winMsg
	procPeekMessageW.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0, pmNoRemove) // makes the queue
	var self windows.Handle
	if err := windows.GetModuleHandleEx(0, nil, &self); err != nil {
		return fmt.Errorf("gaze: the module handle for the mouse hook: %w", err)
	}
	hookedMu.Lock()
	hooked[tid] = kick
	hookedMu.Unlock()
	defer func() {
		hookedMu.Lock()
		delete(hooked, tid)
		hookedMu.Unlock()
	}()
	h, _, err := procSetWindowsHookExW.Call(whMouseLL, hookProc, uintptr(self), 0)
	if h == 0 {
		return fmt.Errorf("gaze: SetWindowsHookEx(WH_MOUSE_LL): %w", err)
	}
	defer procUnhookWindowsHookEx.Call(h)
	threadID <- tid
	for {
		r, _, err := procGetMessageW.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0)
		switch int32(r) {
		case 0: // WM_QUIT
			return nil
		case -1:
			return fmt.Errorf("gaze: GetMessage on the mouse hook's thread: %w", err)
		}
	}
}

// Position is the pointer's place on the virtual screen, in pixels.
func (s *hookSource) Position() (int, int, error) {
	var pt struct{ x, y int32 }
	if r, _, err := procGetCursorPos.Call(uintptr(unsafe.Pointer(&pt))); r == 0 {
		return 0, 0, fmt.Errorf("gaze: GetCursorPos: %w", err)
	}
	return int(pt.x), int(pt.y), nil
}
