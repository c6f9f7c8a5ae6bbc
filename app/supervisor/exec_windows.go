package supervisor

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// childAttr starts window processes without a console of their own (the
// binary is linked -H windowsgui, so none would appear anyway).
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: windows.CREATE_NO_WINDOW}
}

// coreJob is a job object every child joins. The core holds its only
// handle and never closes it: when the core process ends (however it
// ends), Windows closes the handle and JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
// ends every child, as Pdeathsig does on Linux. It is process-wide by
// nature (one core per process), so it is made once.
var coreJob struct {
	once sync.Once
	h    windows.Handle
	err  error
}

func job() (windows.Handle, error) {
	coreJob.once.Do(func() {
		h, err := windows.CreateJobObject(nil, nil)
		if err != nil {
			coreJob.err = fmt.Errorf("create job object: %w", err)
			return
		}
		info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
		if _, err := windows.SetInformationJobObject(h, windows.JobObjectExtendedLimitInformation,
			uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
			windows.CloseHandle(h)
			coreJob.err = fmt.Errorf("set job object limits: %w", err)
			return
		}
		coreJob.h = h
	})
	return coreJob.h, coreJob.err
}

// tieToCore puts the child in the core's job object, so it ends with the
// core. The child runs for the moment between its start and this call;
// a window process does nothing in that time but start.
func tieToCore(p *os.Process) error {
	j, err := job()
	if err != nil {
		return err
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(p.Pid))
	if err != nil {
		return fmt.Errorf("open child process: %w", err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(j, h); err != nil {
		return fmt.Errorf("assign child to job: %w", err)
	}
	return nil
}

var (
	user32          = windows.NewLazySystemDLL("user32.dll")
	procPostMessage = user32.NewProc("PostMessageW")
)

const wmClose = 0x0010

// windowsOf lists a process's top-level windows. The EnumWindows callback
// is made once: Go cannot free callbacks, and a process may make only a
// limited number.
var windowsOf = func() func(pid uint32) ([]windows.HWND, error) {
	var (
		mu    sync.Mutex
		want  uint32
		found []windows.HWND
		once  sync.Once
		cb    uintptr
	)
	return func(pid uint32) ([]windows.HWND, error) {
		once.Do(func() {
			cb = windows.NewCallback(func(h windows.HWND, _ uintptr) uintptr {
				var owner uint32
				if _, err := windows.GetWindowThreadProcessId(h, &owner); err == nil && owner == want {
					found = append(found, h)
				}
				return 1 // go on
			})
		})
		mu.Lock()
		defer mu.Unlock()
		want, found = pid, nil
		if err := windows.EnumWindows(cb, nil); err != nil {
			return nil, fmt.Errorf("enumerate windows: %w", err)
		}
		return found, nil
	}
}()

// signalChild: Windows has no SIGTERM for a GUI process. The polite
// request is WM_CLOSE to each of the child's top-level windows (what the
// window manager sends when the user closes a window; Wails quits on it,
// or hides the settings window, which the escalation's SIGKILL then ends).
// SIGKILL (and any other signal) terminates the process.
func signalChild(p *os.Process, sig os.Signal) error {
	if sig != syscall.SIGTERM {
		return p.Kill()
	}
	hwnds, err := windowsOf(uint32(p.Pid))
	if err != nil {
		return err
	}
	if len(hwnds) == 0 {
		return errors.New("the child has no window to close")
	}
	for _, h := range hwnds {
		procPostMessage.Call(uintptr(h), wmClose, 0, 0)
	}
	return nil
}
