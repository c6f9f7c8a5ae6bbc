package presence

import (
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// win32 reads GetLastInputInfo (the session's last input, any app) and
// the foreground window's rectangle against its monitor's; written from
// the Win32 documentation, built, not run, in this project's CI.
type win32 struct{}

func newReader(string) reader { return win32{} }

var (
	user32               = windows.NewLazySystemDLL("user32.dll")
	kernel32             = windows.NewLazySystemDLL("kernel32.dll")
	procGetLastInputInfo = user32.NewProc("GetLastInputInfo")
	procGetWindowRect    = user32.NewProc("GetWindowRect")
	procMonitorFromWin   = user32.NewProc("MonitorFromWindow")
	procGetMonitorInfoW  = user32.NewProc("GetMonitorInfoW")
	procGetShellWindow   = user32.NewProc("GetShellWindow")
	procGetTickCount     = kernel32.NewProc("GetTickCount")
)

type lastInputInfo struct {
	size uint32
	time uint32
}

type rect struct{ left, top, right, bottom int32 }

type monitorInfo struct {
	size    uint32
	monitor rect
	work    rect
	flags   uint32
}

const monitorDefaultToNearest = 2

func (win32) idle() (time.Duration, bool) {
	li := lastInputInfo{size: uint32(unsafe.Sizeof(lastInputInfo{}))}
	if r, _, _ := procGetLastInputInfo.Call(uintptr(unsafe.Pointer(&li))); r == 0 {
		return 0, false
	}
	now, _, _ := procGetTickCount.Call()
	// Both are milliseconds since boot in 32 bits; the difference wraps
	// correctly.
	return time.Duration(uint32(now)-li.time) * time.Millisecond, true
}

// locked: Windows reports a lock by session notifications to a window
// (WTSRegisterSessionNotification), which this reader has not; the idle
// time after an unlock still says the user was away.
func (win32) locked() bool { return false }

func (win32) fullscreen() bool {
	h := windows.GetForegroundWindow()
	if h == 0 {
		return false
	}
	if shell, _, _ := procGetShellWindow.Call(); shell == uintptr(h) {
		return false // the desktop
	}
	var wr rect
	if r, _, _ := procGetWindowRect.Call(uintptr(h), uintptr(unsafe.Pointer(&wr))); r == 0 {
		return false
	}
	m, _, _ := procMonitorFromWin.Call(uintptr(h), monitorDefaultToNearest)
	mi := monitorInfo{size: uint32(unsafe.Sizeof(monitorInfo{}))}
	if r, _, _ := procGetMonitorInfoW.Call(m, uintptr(unsafe.Pointer(&mi))); r == 0 {
		return false
	}
	return wr.left <= mi.monitor.left && wr.top <= mi.monitor.top && wr.right >= mi.monitor.right && wr.bottom >= mi.monitor.bottom
}
