package parentconsole

import (
	"os"

	"golang.org/x/sys/windows"
)

const attachParentProcess = ^uint32(0) // ATTACH_PARENT_PROCESS = (DWORD)-1

var procAttachConsole = windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")

// Attach attaches to the parent's console, if it has one, and points the
// standard handles the parent did not set at it. Written from the Win32
// documentation (AttachConsole, "Console Handles"); built, not run, in
// this project's CI.
func Attach() {
	in, out, errw := unset(os.Stdin), unset(os.Stdout), unset(os.Stderr)
	if !in && !out && !errw {
		return // everything redirected: nothing to attach
	}
	if r, _, _ := procAttachConsole.Call(uintptr(attachParentProcess)); r == 0 {
		return // no parent console (started from Explorer, a shortcut, the Run key)
	}
	if out || errw {
		if f, err := os.OpenFile("CONOUT$", os.O_RDWR, 0); err == nil {
			if out {
				os.Stdout = f
				windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(f.Fd()))
			}
			if errw {
				os.Stderr = f
				windows.SetStdHandle(windows.STD_ERROR_HANDLE, windows.Handle(f.Fd()))
			}
		}
	}
	if in {
		if f, err := os.OpenFile("CONIN$", os.O_RDWR, 0); err == nil {
			os.Stdin = f
			windows.SetStdHandle(windows.STD_INPUT_HANDLE, windows.Handle(f.Fd()))
		}
	}
}

// unset reports whether f has no usable handle (what a GUI program
// started from a console gets).
func unset(f *os.File) bool {
	if f == nil {
		return true
	}
	h := windows.Handle(f.Fd())
	if h == 0 || h == windows.InvalidHandle {
		return true
	}
	t, err := windows.GetFileType(h)
	return err != nil || t == windows.FILE_TYPE_UNKNOWN
}
