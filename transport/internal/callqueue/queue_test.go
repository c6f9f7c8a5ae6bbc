package callqueue

import (
	"testing"
	"testing/synctest"
)

// A handler that is behind holds the reader back: WaitRoom and PushEvent
// wait while MaxPending counted calls are pending and go on as soon as one
// of them ends; plain pushes neither count nor wait.
func TestRoomHoldsTheReaderBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New()
		defer q.Close()
		gate := make(chan struct{})
		ran := 0
		for range MaxPending + 10 {
			q.PushCounted(func() { <-gate; ran++ })
		}
		q.Push(func() { ran++ }) // not counted: never waits
		waited := make(chan bool)
		go func() { waited <- q.WaitRoom(nil) }()
		pushed := make(chan bool)
		go func() { pushed <- q.PushEvent(func() { ran++ }, nil) }()
		synctest.Wait()
		select {
		case <-waited:
			t.Fatalf("WaitRoom returned with %d calls pending (room %d)", MaxPending+10, MaxPending)
		case <-pushed:
			t.Fatalf("PushEvent queued with %d calls pending (room %d)", MaxPending+10, MaxPending)
		default:
		}
		for range 10 {
			gate <- struct{}{}
		}
		synctest.Wait()
		select {
		case <-waited:
			t.Fatalf("WaitRoom returned with %d calls pending", MaxPending)
		default:
		}
		// Two more calls end: room for both waiters, whichever goes first.
		gate <- struct{}{}
		gate <- struct{}{}
		if !<-waited || !<-pushed {
			t.Fatal("WaitRoom or PushEvent gave up with no stop")
		}
		close(gate)
		synctest.Wait()
		if want := MaxPending + 12; ran != want {
			t.Fatalf("ran %d calls, want %d", ran, want)
		}
	})
}

// The waits give up when their stop closes (the socket was detached, the
// wire closed), and Close lets every waiter go, so a reader never
// outlives its socket.
func TestWaitsEndWithStopOrClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := New()
		gate := make(chan struct{})
		for range MaxPending {
			q.PushCounted(func() { <-gate })
		}
		stop := make(chan struct{})
		waited := make(chan bool)
		go func() { waited <- q.WaitRoom(stop) }()
		pushed := make(chan bool)
		go func() { pushed <- q.PushEvent(func() { t.Error("a call queued after its stop ran") }, stop) }()
		synctest.Wait()
		close(stop)
		if <-waited || <-pushed {
			t.Fatal("a wait whose stop closed reported room")
		}
		late := make(chan bool)
		go func() { late <- q.WaitRoom(nil) }()
		synctest.Wait()
		close(gate)
		q.Close()
		if !<-late {
			t.Fatal("WaitRoom after Close reported no room")
		}
		q.PushCounted(func() { t.Error("a call queued after Close ran") })
	})
}
