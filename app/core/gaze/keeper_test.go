package gaze_test

import (
	"context"
	"errors"
	"image"
	"slices"
	"sync"
	"testing"
	"testing/synctest"

	"yui/app/core/gaze"
	"yui/app/view"
)

// source is a fake pointer source that counts its watches.
type source struct {
	mu       sync.Mutex
	watching int
	fail     error
}

func (s *source) Watch(ctx context.Context, moved func()) error {
	s.mu.Lock()
	if s.fail != nil {
		s.mu.Unlock()
		return s.fail
	}
	s.watching++
	s.mu.Unlock()
	<-ctx.Done()
	s.mu.Lock()
	s.watching--
	s.mu.Unlock()
	return ctx.Err()
}

func (s *source) Position() (int, int, error) { return 0, 0, nil }

func (s *source) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.watching
}

// The pointer is watched only while some character follows it, once
// per character, and stopping her ends her watch.
func TestKeeperWatchesOnlyWhileACharacterFollows(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		src := &source{}
		var errs []string
		k := gaze.NewKeeper(t.Context(), src, 0, 0, func(id string, err error) { errs = append(errs, id) })
		target := gaze.Target{Window: func() (image.Rectangle, bool) { return image.Rect(0, 0, 10, 10), true }, Send: func(view.Pointer) {}}
		synctest.Wait()
		if src.count() != 0 {
			t.Fatal("watching with no character")
		}
		k.Set(map[string]gaze.Target{"a": target, "b": target})
		synctest.Wait()
		if src.count() != 2 || !slices.Equal(k.Running(), []string{"a", "b"}) {
			t.Fatalf("%d watches, running %v", src.count(), k.Running())
		}
		k.Set(map[string]gaze.Target{"b": target})
		synctest.Wait()
		if src.count() != 1 || !slices.Equal(k.Running(), []string{"b"}) {
			t.Fatalf("%d watches, running %v after a stopped", src.count(), k.Running())
		}
		k.Set(nil)
		synctest.Wait()
		if src.count() != 0 || len(k.Running()) != 0 {
			t.Fatalf("%d watches after all stopped", src.count())
		}
		src.fail = errors.New("no XInput2")
		k.Set(map[string]gaze.Target{"c": target})
		synctest.Wait()
		if len(k.Running()) != 0 || !slices.Equal(errs, []string{"c"}) {
			t.Fatalf("a failed watch: running %v, errors for %v", k.Running(), errs)
		}
	})
}
