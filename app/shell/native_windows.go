package shell

import (
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/windows"

	"yui/app/x11"
)

// Win32 parts of the pet window, written from the Win32 documentation
// (winuser.h, wingdi.h). Built by `make windows`; not run in this
// project's CI (see docs/windows.md).

var (
	user32                = windows.NewLazySystemDLL("user32.dll")
	gdi32                 = windows.NewLazySystemDLL("gdi32.dll")
	procGetWindowTextW    = user32.NewProc("GetWindowTextW")
	procGetWindowLongPtrW = user32.NewProc("GetWindowLongPtrW")
	procSetWindowLongPtrW = user32.NewProc("SetWindowLongPtrW")
	procShowWindow        = user32.NewProc("ShowWindow")
	procIsWindowVisible   = user32.NewProc("IsWindowVisible")
	procSetWindowRgn      = user32.NewProc("SetWindowRgn")
	procGetDpiForWindow   = user32.NewProc("GetDpiForWindow")
	procCreateRectRgn     = gdi32.NewProc("CreateRectRgn")
	procCombineRgn        = gdi32.NewProc("CombineRgn")
	procDeleteObject      = gdi32.NewProc("DeleteObject")
)

const (
	gwlExStyle       = ^uintptr(20 - 1) // GWL_EXSTYLE = -20
	wsExToolWindow   = 0x00000080
	wsExAppWindow    = 0x00040000
	swHide           = 0
	swShowNoActivate = 4
	rgnOr            = 2
)

// win32Window is the pet's top-level window.
type win32Window struct{ hwnd windows.HWND }

// findNative finds this process's visible top-level window titled title;
// errNotYet while there is none.
func findNative(title string) (native, error) {
	h, err := topLevelWindow(uint32(os.Getpid()), title)
	if err != nil {
		return nil, err
	}
	if h == 0 {
		return nil, errNotYet
	}
	return &win32Window{hwnd: h}, nil
}

// enumState is EnumWindows' callback state; the callback is made once (Go
// cannot free callbacks) and serialized by enumMu.
var (
	enumMu    sync.Mutex
	enumOnce  sync.Once
	enumCB    uintptr
	enumPid   uint32
	enumTitle string
	enumFound windows.HWND
)

func topLevelWindow(pid uint32, title string) (windows.HWND, error) {
	enumOnce.Do(func() {
		enumCB = windows.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
			var owner uint32
			if _, err := windows.GetWindowThreadProcessId(h, &owner); err != nil || owner != enumPid {
				return 1
			}
			if v, _, _ := procIsWindowVisible.Call(uintptr(h)); v == 0 {
				return 1
			}
			buf := make([]uint16, 512)
			n, _, _ := procGetWindowTextW.Call(uintptr(h), uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
			if windows.UTF16ToString(buf[:n]) == enumTitle {
				enumFound = h
				return 0 // stop
			}
			return 1
		})
	})
	enumMu.Lock()
	defer enumMu.Unlock()
	enumPid, enumTitle, enumFound = pid, title, 0
	// EnumWindows reports an error when the callback stops it early; the
	// result is what the callback found.
	windows.EnumWindows(enumCB, nil)
	return enumFound, nil
}

// SkipTaskbar makes the window a tool window (WS_EX_TOOLWINDOW, not
// WS_EX_APPWINDOW), which the taskbar and Alt+Tab leave out. The taskbar
// reads the style when a window is shown, so a visible window is hidden
// and shown again (without taking the focus).
func (w *win32Window) SkipTaskbar() error {
	ex, _, _ := procGetWindowLongPtrW.Call(uintptr(w.hwnd), gwlExStyle)
	want := (ex | wsExToolWindow) &^ wsExAppWindow
	if want == ex {
		return nil
	}
	visible, _, _ := procIsWindowVisible.Call(uintptr(w.hwnd))
	if visible != 0 {
		procShowWindow.Call(uintptr(w.hwnd), swHide)
	}
	// It returns the previous style, never 0 for a Wails window; 0 is a
	// failure.
	r, _, err := procSetWindowLongPtrW.Call(uintptr(w.hwnd), gwlExStyle, want)
	if r == 0 {
		if visible != 0 {
			procShowWindow.Call(uintptr(w.hwnd), swShowNoActivate)
		}
		return fmt.Errorf("shell: SetWindowLongPtr(GWL_EXSTYLE): %w", err)
	}
	if visible != 0 {
		procShowWindow.Call(uintptr(w.hwnd), swShowNoActivate)
	}
	return nil
}

// SetInputShape sets the window region to the union of rects (CSS pixels
// scaled to the window's DPI). Windows has no input-only shape: the region
// also clips drawing, which loses nothing because the page names every
// visible box and the rest of the window is transparent. The system owns
// the region after SetWindowRgn succeeds.
func (w *win32Window) SetInputShape(rects []x11.Rect) error {
	dpi, _, _ := procGetDpiForWindow.Call(uintptr(w.hwnd))
	if dpi == 0 {
		dpi = 96
	}
	scale := func(v int) int32 { return int32((int64(v)*int64(dpi) + 95) / 96) }
	floor := func(v int) int32 { return int32(int64(v) * int64(dpi) / 96) }
	rgn, _, _ := procCreateRectRgn.Call(0, 0, 0, 0)
	if rgn == 0 {
		return fmt.Errorf("shell: CreateRectRgn failed")
	}
	for _, r := range rects {
		if r.W <= 0 || r.H <= 0 {
			continue
		}
		part, _, _ := procCreateRectRgn.Call(uintptr(floor(r.X)), uintptr(floor(r.Y)), uintptr(scale(r.X+r.W)), uintptr(scale(r.Y+r.H)))
		if part == 0 {
			procDeleteObject.Call(rgn)
			return fmt.Errorf("shell: CreateRectRgn failed")
		}
		procCombineRgn.Call(rgn, rgn, part, rgnOr)
		procDeleteObject.Call(part)
	}
	if ok, _, err := procSetWindowRgn.Call(uintptr(w.hwnd), rgn, 1); ok == 0 {
		procDeleteObject.Call(rgn)
		return fmt.Errorf("shell: SetWindowRgn: %w", err)
	}
	return nil
}
