//go:build windows

package perch

import (
	"context"
	"errors"
	"fmt"
	"image"
	"runtime"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"

	"yui/app/look"
)

// Windows is the desktop's top-level windows: EnumWindows (top to bottom,
// reversed to bottom to top), DWM's extended frame bounds (the window as
// drawn, without the invisible resize borders) and a WinEvent hook per
// watch.
type Windows struct{}

// System is the Windows desktop.
func System() Desktop { return Windows{} }

var (
	user32   = windows.NewLazySystemDLL("user32.dll")
	dwmapi   = windows.NewLazySystemDLL("dwmapi.dll")
	procRect = user32.NewProc("GetWindowRect")
	procIcon = user32.NewProc("IsIconic")
	procText = user32.NewProc("GetWindowTextW")
	procLong = user32.NewProc("GetWindowLongW")
	procHook = user32.NewProc("SetWinEventHook")
	procUnho = user32.NewProc("UnhookWinEvent")
	procMsg  = user32.NewProc("GetMessageW")
	procPost = user32.NewProc("PostThreadMessageW")
	procMon  = user32.NewProc("MonitorFromWindow")
	procMInf = user32.NewProc("GetMonitorInfoW")
	procDwm  = dwmapi.NewProc("DwmGetWindowAttribute")
)

const (
	dwmaExtendedFrameBounds = 9
	dwmaCloaked             = 14
	gwlExStyle              = -20
	wsExToolWindow          = 0x00000080
	eventObjectDestroy      = 0x8001
	eventObjectHide         = 0x8003
	eventObjectLocation     = 0x800B
	eventSystemForeground   = 0x0003
	eventSystemMinimize     = 0x0016
	eventSystemMoveSizeEnd  = 0x000B
	wineventOutOfContext    = 0x0000
	wmQuit                  = 0x0012
	objidWindow             = 0
)

type rect32 struct{ Left, Top, Right, Bottom int32 }

func (r rect32) image() image.Rectangle {
	return image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom))
}

// frame is the window as drawn: DWM's extended frame bounds, else
// GetWindowRect.
func frame(h windows.HWND) (image.Rectangle, bool) {
	var r rect32
	if ret, _, _ := procDwm.Call(uintptr(h), dwmaExtendedFrameBounds, uintptr(unsafe.Pointer(&r)), unsafe.Sizeof(r)); ret == 0 {
		return r.image(), true
	}
	if ok, _, _ := procRect.Call(uintptr(h), uintptr(unsafe.Pointer(&r))); ok == 0 {
		return image.Rectangle{}, false
	}
	return r.image(), true
}

func iconic(h windows.HWND) bool { ok, _, _ := procIcon.Call(uintptr(h)); return ok != 0 }

func cloaked(h windows.HWND) bool {
	var c uint32
	ret, _, _ := procDwm.Call(uintptr(h), dwmaCloaked, uintptr(unsafe.Pointer(&c)), unsafe.Sizeof(c))
	return ret == 0 && c != 0
}

func title(h windows.HWND) string {
	buf := make([]uint16, 512)
	n, _, _ := procText.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	return windows.UTF16ToString(buf[:n])
}

// fullscreen: the frame covers its whole monitor.
func fullscreen(h windows.HWND, f image.Rectangle) bool {
	const monitorDefaultToNearest = 2
	m, _, _ := procMon.Call(uintptr(h), monitorDefaultToNearest)
	if m == 0 {
		return false
	}
	var info struct {
		Size          uint32
		Monitor, Work rect32
		Flags         uint32
	}
	info.Size = uint32(unsafe.Sizeof(info))
	if ok, _, _ := procMInf.Call(m, uintptr(unsafe.Pointer(&info))); ok == 0 {
		return false
	}
	return f.Eq(info.Monitor.image()) || f.Union(info.Monitor.image()).Eq(f)
}

// appName is the executable's base name without .exe.
func appName(pid uint32) string {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return ""
	}
	defer windows.CloseHandle(p)
	buf := make([]uint16, windows.MAX_PATH)
	n := uint32(len(buf))
	if windows.QueryFullProcessImageName(p, 0, &buf[0], &n) != nil {
		return ""
	}
	s := windows.UTF16ToString(buf[:n])
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '\\' || s[i] == '/' {
			s = s[i+1:]
			break
		}
	}
	if len(s) > 4 && (s[len(s)-4:] == ".exe" || s[len(s)-4:] == ".EXE") {
		s = s[:len(s)-4]
	}
	return s
}

func describe(h windows.HWND) look.Window {
	var pid uint32
	windows.GetWindowThreadProcessId(h, &pid)
	f, _ := frame(h)
	var r rect32
	procRect.Call(uintptr(h), uintptr(unsafe.Pointer(&r)))
	ex, _, _ := procLong.Call(uintptr(h), uintptr(uint32(gwlExStyle&0xffffffff)))
	w := look.Window{App: appName(pid), Title: title(h), Rect: r.image(), Frame: f, PID: int(pid), ID: uint64(h),
		Hidden: !windows.IsWindowVisible(h) || iconic(h) || cloaked(h)}
	if ex&wsExToolWindow != 0 {
		w.Type = "utility"
	}
	w.Fullscreen = !w.Hidden && fullscreen(h, f)
	return w
}

// Windows lists the visible top-level windows, bottom to top.
func (Windows) Windows() ([]look.Window, error) {
	var hs []windows.HWND
	cb := syscall.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
		hs = append(hs, h)
		return 1
	})
	if err := windows.EnumWindows(cb, nil); err != nil {
		return nil, fmt.Errorf("perch: EnumWindows: %w", err)
	}
	out := make([]look.Window, 0, len(hs))
	for i := len(hs) - 1; i >= 0; i-- { // EnumWindows goes top to bottom
		if w := describe(hs[i]); !w.Hidden && title(hs[i]) != "" {
			out = append(out, w)
		}
	}
	return out, nil
}

// hookMu guards hooks: the WinEvent callback is one function for every
// watch, finding its watch by the hook handle.
var (
	hookMu sync.Mutex
	hooks  = map[uintptr]*watch{}
	hookCB = syscall.NewCallback(winEvent)
)

type watch struct {
	target windows.HWND
	fn     func(Change)
	done   bool
}

func winEvent(hook uintptr, event uint32, h windows.HWND, idObject, idChild int32, _ uint32, _ uint32) uintptr {
	hookMu.Lock()
	w := hooks[hook]
	hookMu.Unlock()
	if w == nil || w.done || idObject != objidWindow {
		return 0
	}
	if h != w.target && event != eventSystemForeground {
		return 0
	}
	switch {
	case event == eventObjectDestroy || !windows.IsWindow(w.target):
		w.done = true
		w.fn(Change{Gone: true})
		// The callback runs on the watch's thread: end its message loop.
		procPost.Call(uintptr(windows.GetCurrentThreadId()), wmQuit, 0, 0)
		return 0
	}
	f, _ := frame(w.target)
	hidden := !windows.IsWindowVisible(w.target) || iconic(w.target) || cloaked(w.target)
	w.fn(Change{Frame: f, Hidden: hidden, Fullscreen: !hidden && fullscreen(w.target, f), Restacked: event == eventSystemForeground})
	return 0
}

// Watch follows window id with an out-of-context WinEvent hook on the
// window's process (move/size, minimise, hide, destroy) plus foreground
// changes (restacking), on a locked thread running its message loop.
func (Windows) Watch(ctx context.Context, id uint64, fn func(Change)) error {
	target := windows.HWND(id)
	var pid uint32
	tid, err := windows.GetWindowThreadProcessId(target, &pid)
	if err != nil || tid == 0 {
		fn(Change{Gone: true})
		return nil
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		w := &watch{target: target, fn: fn}
		var hs []uintptr
		for _, r := range [][2]uint32{{eventSystemForeground, eventSystemForeground}, {eventSystemMoveSizeEnd, eventSystemMinimize + 1},
			{eventObjectDestroy, eventObjectHide}, {eventObjectLocation, eventObjectLocation}} {
			p := uint32(0)
			if r[0] != eventSystemForeground {
				p = pid
			}
			h, _, _ := procHook.Call(uintptr(r[0]), uintptr(r[1]), 0, hookCB, uintptr(p), 0, wineventOutOfContext)
			if h == 0 {
				continue
			}
			hookMu.Lock()
			hooks[h] = w
			hookMu.Unlock()
			hs = append(hs, h)
		}
		defer func() {
			hookMu.Lock()
			for _, h := range hs {
				procUnho.Call(h)
				delete(hooks, h)
			}
			hookMu.Unlock()
		}()
		if len(hs) == 0 {
			errc <- errors.New("perch: SetWinEventHook failed")
			return
		}
		me := windows.GetCurrentThreadId()
		stop := context.AfterFunc(ctx, func() { procPost.Call(uintptr(me), wmQuit, 0, 0) })
		defer stop()
		var msg [48]byte
		for {
			r, _, _ := procMsg.Call(uintptr(unsafe.Pointer(&msg[0])), 0, 0, 0)
			if int32(r) <= 0 || w.done {
				break
			}
		}
		errc <- ctx.Err()
	}()
	return <-errc
}

// Available is always true on Windows: every desktop has windows.
func Available() bool { return true }
