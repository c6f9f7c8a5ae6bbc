package capture

import (
	"context"
	"fmt"
	"image"
	"log/slog"
	"strings"
	"sync"
	"unsafe"

	"github.com/kbinani/screenshot"
	"golang.org/x/sys/windows"

	"yui/app/permission"
)

// NewSystem returns the platform's Source: the Windows desktop's monitors.
func NewSystem(log *slog.Logger) Source {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Win32{log: log}
}

// Win32 lists monitors with EnumDisplayMonitors (labels are the GDI device
// names, "DISPLAY1" …) and captures with kbinani/screenshot (GDI
// BitBlt), written from the Win32 documentation; built, not run, in this
// project's CI. Bounds are in virtual-screen pixels; the process is
// per-monitor DPI aware (its manifest), so they are physical pixels.
type Win32 struct{ log *slog.Logger }

var (
	user32                  = windows.NewLazySystemDLL("user32.dll")
	procEnumDisplayMonitors = user32.NewProc("EnumDisplayMonitors")
	procGetMonitorInfoW     = user32.NewProc("GetMonitorInfoW")
)

type rect struct{ Left, Top, Right, Bottom int32 }

// monitorInfoEx is MONITORINFOEXW.
type monitorInfoEx struct {
	Size    uint32
	Monitor rect
	Work    rect
	Flags   uint32
	Device  [32]uint16
}

var (
	enumOnce sync.Once
	enumCB   uintptr
	enumMu   sync.Mutex
	enumOut  []Monitor
)

// Monitors lists the monitors in EnumDisplayMonitors order, the order
// kbinani/screenshot numbers them in.
func (w *Win32) Monitors() ([]Monitor, error) {
	enumOnce.Do(func() {
		enumCB = windows.NewCallback(func(hmon, hdc uintptr, r *rect, data uintptr) uintptr {
			mi := monitorInfoEx{}
			mi.Size = uint32(unsafe.Sizeof(mi))
			i := len(enumOut)
			label := defaultLabel(i)
			b := image.Rect(int(r.Left), int(r.Top), int(r.Right), int(r.Bottom))
			if ok, _, _ := procGetMonitorInfoW.Call(hmon, uintptr(unsafe.Pointer(&mi))); ok != 0 {
				if d := strings.TrimPrefix(windows.UTF16ToString(mi.Device[:]), `\\.\`); d != "" {
					label = d
				}
				b = image.Rect(int(mi.Monitor.Left), int(mi.Monitor.Top), int(mi.Monitor.Right), int(mi.Monitor.Bottom))
			}
			enumOut = append(enumOut, Monitor{Index: i, Label: label, Bounds: b})
			return 1
		})
	})
	enumMu.Lock()
	defer enumMu.Unlock()
	enumOut = nil
	if ok, _, err := procEnumDisplayMonitors.Call(0, 0, enumCB, 0); ok == 0 {
		return nil, fmt.Errorf("capture: EnumDisplayMonitors: %w", err)
	}
	return append([]Monitor(nil), enumOut...), nil
}

// Capture uses up g and captures its monitor.
func (w *Win32) Capture(ctx context.Context, g *permission.Grant) (Shot, error) {
	i, err := g.Use()
	if err != nil {
		return Shot{}, fmt.Errorf("capture: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Shot{}, fmt.Errorf("capture: monitor %d: %w", i, err)
	}
	ms, err := w.Monitors()
	if err != nil {
		return Shot{}, err
	}
	m, ok := Find(ms, i)
	if !ok {
		return Shot{}, fmt.Errorf("capture: monitor %d of %d: %w", i, len(ms), ErrNoMonitor)
	}
	img, err := screenshot.CaptureRect(m.Bounds)
	if err != nil {
		return Shot{}, fmt.Errorf("capture: monitor %d: %w", i, err)
	}
	w.log.Info("capture.taken", "monitor", i, "width", img.Rect.Dx(), "height", img.Rect.Dy())
	return Shot{Monitor: m, Image: img}, nil
}
