package shell

import (
	"image"
	"unsafe"
)

var (
	procMonitorFromRect = user32.NewProc("MonitorFromRect")
	procGetMonitorInfoW = user32.NewProc("GetMonitorInfoW")
)

// setOrigin is the origin Wails' WindowSetPosition adds for a window at r
// (absolute pixels): the work area of the monitor nearest the window
// (MonitorFromWindow with MONITOR_DEFAULTTONEAREST, as Wails asks, is the
// monitor its rectangle overlaps most). Not run here (docs/windows.md).
func setOrigin(r image.Rectangle) image.Point {
	rect := struct{ left, top, right, bottom int32 }{int32(r.Min.X), int32(r.Min.Y), int32(r.Max.X), int32(r.Max.Y)}
	const monitorDefaultToNearest = 2
	mon, _, _ := procMonitorFromRect.Call(uintptr(unsafe.Pointer(&rect)), monitorDefaultToNearest)
	if mon == 0 {
		return image.Point{}
	}
	var info struct {
		cbSize        uint32
		monitor, work struct{ left, top, right, bottom int32 }
		flags         uint32
	}
	info.cbSize = uint32(unsafe.Sizeof(info))
	if ok, _, _ := procGetMonitorInfoW.Call(mon, uintptr(unsafe.Pointer(&info))); ok == 0 {
		return image.Point{}
	}
	return image.Pt(int(info.work.left), int(info.work.top))
}
