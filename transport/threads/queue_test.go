package threads

import (
	"context"
	"testing"
	"testing/synctest"
)

// A handler that is behind holds the reader back: waitRoom waits while
// queueRoom calls are pending and returns as soon as one of them ends.
func TestQueueWaitRoomHoldsTheReaderBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQueue()
		defer q.close()
		gate := make(chan struct{})
		ran := 0
		for range queueRoom + 10 {
			q.push(func() { <-gate; ran++ })
		}
		returned := make(chan struct{})
		go func() { q.waitRoom(context.Background()); close(returned) }()
		synctest.Wait()
		select {
		case <-returned:
			t.Fatalf("waitRoom returned with %d calls pending (room %d)", queueRoom+10, queueRoom)
		default:
		}
		for range 10 {
			gate <- struct{}{}
		}
		synctest.Wait()
		select {
		case <-returned:
			t.Fatalf("waitRoom returned with %d calls pending", queueRoom)
		default:
		}
		gate <- struct{}{}
		<-returned
		close(gate)
		synctest.Wait()
		if ran != queueRoom+10 {
			t.Fatalf("ran %d calls, want %d", ran, queueRoom+10)
		}
	})
}

// waitRoom gives up when its context ends (the socket was detached) or
// the queue closes, so a reader never outlives its socket.
func TestQueueWaitRoomEndsWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := newQueue()
		gate := make(chan struct{})
		for range queueRoom {
			q.push(func() { <-gate })
		}
		ctx, cancel := context.WithCancel(context.Background())
		returned := make(chan struct{})
		go func() { q.waitRoom(ctx); close(returned) }()
		synctest.Wait()
		cancel()
		<-returned
		close(gate)
		q.close()
		q.waitRoom(context.Background()) // closed: returns at once
	})
}
