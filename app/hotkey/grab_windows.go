package hotkey

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"unsafe"
)

// Win32 registers the combination with RegisterHotKey on a thread of its
// own, whose message loop receives WM_HOTKEY.
type Win32 struct{}

// System is the platform's Grabber.
func System() Grabber { return Win32{} }

var (
	user32             = syscall.NewLazyDLL("user32.dll")
	kernel32           = syscall.NewLazyDLL("kernel32.dll")
	procRegisterHotKey = user32.NewProc("RegisterHotKey")
	procUnregisterHot  = user32.NewProc("UnregisterHotKey")
	procGetMessage     = user32.NewProc("GetMessageW")
	procPostThreadMsg  = user32.NewProc("PostThreadMessageW")
	procGetThreadID    = kernel32.NewProc("GetCurrentThreadId")
)

const (
	modAlt      = 0x1
	modControl  = 0x2
	modShift    = 0x4
	modWin      = 0x8
	modNoRepeat = 0x4000
	wmHotkey    = 0x0312
	wmQuit      = 0x0012

	errorHotkeyAlreadyRegistered = 1409
)

var vks = map[string]uintptr{
	"Space": 0x20, "Enter": 0x0d, "Tab": 0x09, "Escape": 0x1b, "Insert": 0x2d, "Delete": 0x2e,
	"Home": 0x24, "End": 0x23, "PageUp": 0x21, "PageDown": 0x22,
	"Left": 0x25, "Up": 0x26, "Right": 0x27, "Down": 0x28, "Pause": 0x13,
}

func vk(key string) uintptr {
	if v, ok := vks[key]; ok {
		return v
	}
	if len(key) == 1 {
		return uintptr(key[0]) // 'A'–'Z' and '0'–'9' are their own virtual keys
	}
	var n int
	fmt.Sscanf(key, "F%d", &n)
	return 0x70 + uintptr(n-1)
}

type msg struct {
	hwnd    uintptr
	message uint32
	wParam  uintptr
	lParam  uintptr
	time    uint32
	pt      struct{ x, y int32 }
}

// Listen registers c for the calling process. Not run on Windows by the
// test suite (docs/windows.md); it builds with GOOS=windows.
func (Win32) Listen(ctx context.Context, c Combo, fn func()) error {
	mods := uintptr(modNoRepeat)
	if c.Mods&Ctrl != 0 {
		mods |= modControl
	}
	if c.Mods&Alt != 0 {
		mods |= modAlt
	}
	if c.Mods&Shift != 0 {
		mods |= modShift
	}
	if c.Mods&Super != 0 {
		mods |= modWin
	}
	result := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tid, _, _ := procGetThreadID.Call()
		if r, _, err := procRegisterHotKey.Call(0, 1, mods, vk(c.Key)); r == 0 {
			var en syscall.Errno
			if errors.As(err, &en) && en == errorHotkeyAlreadyRegistered {
				result <- fmt.Errorf("hotkey: %s: %w", c, ErrTaken)
			} else {
				result <- fmt.Errorf("hotkey: RegisterHotKey %s: %w", c, err)
			}
			return
		}
		defer procUnregisterHot.Call(0, 1)
		result <- nil
		stop := context.AfterFunc(ctx, func() { procPostThreadMsg.Call(tid, wmQuit, 0, 0) })
		defer stop()
		var m msg
		for {
			r, _, _ := procGetMessage.Call(uintptr(unsafe.Pointer(&m)), 0, 0, 0)
			if int32(r) <= 0 {
				return // WM_QUIT or an error
			}
			if m.message == wmHotkey {
				fn()
			}
		}
	}()
	return <-result
}
