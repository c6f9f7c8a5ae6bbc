package gaze

import (
	"context"
	"testing"
	"time"
	"unsafe"
)

var (
	procSendInput    = user32.NewProc("SendInput")
	procSetCursorPos = user32.NewProc("SetCursorPos")
)

// mouseInput is Windows' INPUT holding a MOUSEINPUT (amd64 layout).
type mouseInput struct {
	typ       uint32
	_         uint32
	dx, dy    int32
	mouseData uint32
	flags     uint32
	time      uint32
	_         uint32
	extra     uintptr
}

func sendMove(t *testing.T, dx, dy int32) {
	t.Helper()
	in := mouseInput{typ: 0 /* INPUT_MOUSE */, dx: dx, dy: dy, flags: 0x0001 /* MOUSEEVENTF_MOVE */}
	if n, _, err := procSendInput.Call(1, uintptr(unsafe.Pointer(&in)), unsafe.Sizeof(in)); n != 1 {
		t.Fatalf("SendInput: %v", err)
	}
}

func setCursor(t *testing.T, x, y int) {
	t.Helper()
	if r, _, err := procSetCursorPos.Call(uintptr(x), uintptr(y)); r == 0 {
		t.Fatalf("SetCursorPos: %v", err)
	}
}

// The failure bound of a wait on Windows itself (the hook thread, the
// input queue); a pass never waits it out.
const hookLimit = 30 * time.Second

func TestPositionIsTheCursor(t *testing.T) {
	setCursor(t, 321, 123)
	x, y, err := System().Position()
	if err != nil || x != 321 || y != 123 {
		t.Fatalf("Position = %d, %d, %v; want 321, 123", x, y, err)
	}
}

func TestTheMouseHookReportsMovesUntilItsContextEnds(t *testing.T) {
	for round := range 2 { // the second: the first hook was removed cleanly
		installed := make(chan struct{})
		s := &hookSource{installed: func() { close(installed) }}
		moved := make(chan struct{}, 1)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			done <- s.Watch(ctx, func() {
				select {
				case moved <- struct{}{}:
				default:
				}
			})
		}()
		select {
		case <-installed:
		case err := <-done:
			t.Fatalf("round %d: Watch ended before the hook was in: %v", round, err)
		case <-time.After(hookLimit):
			t.Fatalf("round %d: the hook was not installed", round)
		}
		setCursor(t, 200, 200)
		sendMove(t, 9, 6)
		select {
		case <-moved:
		case <-time.After(hookLimit):
			t.Fatalf("round %d: a mouse move was not reported", round)
		}
		if x, y, err := s.Position(); err != nil || (x == 200 && y == 200) {
			t.Fatalf("round %d: after the move Position = %d, %d, %v", round, x, y, err)
		}
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: Watch = %v after its context ended, want nil", round, err)
			}
		case <-time.After(hookLimit):
			t.Fatalf("round %d: Watch did not end with its context", round)
		}
		hookedMu.Lock()
		n := len(hooked)
		hookedMu.Unlock()
		if n != 0 {
			t.Fatalf("round %d: %d hook threads still registered after Watch ended", round, n)
		}
	}
}
