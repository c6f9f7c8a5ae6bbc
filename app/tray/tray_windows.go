package tray

import (
	"runtime"

	"fyne.io/systray"
)

func (t *Tray) start() error {
	t.end = systray.Quit
	go func() {
		// The tray's window and its message loop must share a thread.
		runtime.LockOSThread()
		systray.Run(func() {
			// The window exists now: the icon can be set.
			systray.SetIcon(t.opts.Icon)
			systray.SetTooltip(t.opts.Title)
			t.onReady()
		}, t.onExit)
		close(t.stopped)
	}()
	t.log.Info("tray_started")
	return nil
}

// onExit runs on the tray's thread when the tray ends: after Close, or
// when the OS session ends (WM_ENDSESSION), before which Windows waits for
// it to return.
func (t *Tray) onExit() {
	t.mu.Lock()
	ours := t.closed
	t.mu.Unlock()
	if !ours && t.opts.SessionEnd != nil {
		t.log.Info("tray_session_end")
		t.opts.SessionEnd()
	}
}

func (t *Tray) stop() {
	t.end()
	<-t.stopped
}
