package listentest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"yui/app/audio"
)

// QuietMic is a microphone that hears a quiet room, in real time (or in a
// synctest bubble's time), and counts how often it is open. Its sources
// are a speakers' monitor, a default USB microphone and an echo-cancelled
// one. The zero value is ready; it is safe from any goroutine.
type QuietMic struct {
	mu   sync.Mutex
	open int
}

// Sources lists the three sources.
func (m *QuietMic) Sources(context.Context) ([]audio.Source, error) {
	return []audio.Source{
		{Name: "room.monitor", Description: "Monitor of Speakers", Monitor: true},
		{Name: "usb-mic", Description: "USB microphone", Default: true},
		{Name: "ec-mic", Description: "Echo-cancelled microphone", EchoCancelled: true},
	}, nil
}

// Capture opens the microphone: silent chunks, one per o.Chunk.
func (m *QuietMic) Capture(ctx context.Context, o audio.CaptureOptions) (audio.Capture, error) {
	m.mu.Lock()
	m.open++
	m.mu.Unlock()
	return &quietCapture{m: m, done: make(chan struct{}), n: o.Format.Samples(o.Chunk), every: o.Chunk}, nil
}

// Opened is how many captures are open now.
func (m *QuietMic) Opened() int { m.mu.Lock(); defer m.mu.Unlock(); return m.open }

type quietCapture struct {
	m     *QuietMic
	done  chan struct{}
	once  sync.Once
	n     int
	every time.Duration
}

func (c *quietCapture) Read(ctx context.Context) ([]int16, time.Time, error) {
	t := time.NewTimer(c.every)
	defer t.Stop()
	select {
	case <-t.C:
		return make([]int16, c.n), time.Now().Add(-c.every), nil
	case <-ctx.Done():
		return nil, time.Time{}, ctx.Err()
	case <-c.done:
		return nil, time.Time{}, audio.ErrClosed
	}
}

func (c *quietCapture) Close() error {
	c.once.Do(func() {
		close(c.done)
		c.m.mu.Lock()
		c.m.open--
		c.m.mu.Unlock()
	})
	return nil
}

// Listed reports whether devices (the settings window's Listening section,
// as JSON values) are Automatic and this microphone's two microphones, its
// monitor left out.
func (m *QuietMic) Listed(devices any) bool {
	devs, _ := devices.([]any)
	ids := fmt.Sprint(devs)
	return len(devs) == 3 && strings.Contains(ids, "id:ec-mic") && strings.Contains(ids, "id:usb-mic") && !strings.Contains(ids, "room.monitor")
}
