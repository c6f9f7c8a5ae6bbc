//go:build windows

package winmm

import (
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"yui/app/audio"
)

var (
	winmm                   = syscall.NewLazyDLL("winmm.dll")
	kernel32                = syscall.NewLazyDLL("kernel32.dll")
	procWaveInGetNumDevs    = winmm.NewProc("waveInGetNumDevs")
	procWaveInGetDevCapsW   = winmm.NewProc("waveInGetDevCapsW")
	procWaveInOpen          = winmm.NewProc("waveInOpen")
	procWaveInPrepareHeader = winmm.NewProc("waveInPrepareHeader")
	procWaveInUnprepare     = winmm.NewProc("waveInUnprepareHeader")
	procWaveInAddBuffer     = winmm.NewProc("waveInAddBuffer")
	procWaveInStart         = winmm.NewProc("waveInStart")
	procWaveInReset         = winmm.NewProc("waveInReset")
	procWaveInClose         = winmm.NewProc("waveInClose")
	procCreateEventW        = kernel32.NewProc("CreateEventW")
	procWaitForSingleObject = kernel32.NewProc("WaitForSingleObject")
	procCloseHandle         = kernel32.NewProc("CloseHandle")
)

const (
	waveMapper    = 0xFFFFFFFF
	callbackEvent = 0x00050000
	whdrDone      = 0x00000001
	buffers       = 4
	queueLimit    = 20 // chunks held for a reader that fell behind (2 s)
)

// waveFormatEx is WAVEFORMATEX (the API reads its first 18 bytes).
type waveFormatEx struct {
	FormatTag      uint16
	Channels       uint16
	SamplesPerSec  uint32
	AvgBytesPerSec uint32
	BlockAlign     uint16
	BitsPerSample  uint16
	Size           uint16
}

// waveHdr is WAVEHDR.
type waveHdr struct {
	Data          *byte
	BufferLength  uint32
	BytesRecorded uint32
	User          uintptr
	Flags         uint32
	Loops         uint32
	Next          uintptr
	Reserved      uintptr
}

// waveInCaps is WAVEINCAPSW.
type waveInCaps struct {
	Mid, Pid      uint16
	DriverVersion uint32
	Pname         [32]uint16
	Formats       uint32
	Channels      uint16
	Reserved1     uint16
}

// Input is an audio.Input on WinMM's waveIn. It is safe for concurrent use.
type Input struct{ log *slog.Logger }

// NewInput returns an Input; lg may be nil.
func NewInput(lg *slog.Logger) *Input {
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	return &Input{log: lg}
}

func devices() []string {
	n, _, _ := procWaveInGetNumDevs.Call()
	var out []string
	for i := uintptr(0); i < n; i++ {
		var caps waveInCaps
		r, _, _ := procWaveInGetDevCapsW.Call(i, uintptr(unsafe.Pointer(&caps)), unsafe.Sizeof(caps))
		if r != 0 {
			out = append(out, "")
			continue
		}
		out = append(out, syscall.UTF16ToString(caps.Pname[:]))
	}
	return out
}

// Sources implements audio.Input: the wave mapper's devices by name.
func (in *Input) Sources(ctx context.Context) ([]audio.Source, error) {
	if err := winmm.Load(); err != nil {
		return nil, fmt.Errorf("%w: winmm: %v", audio.ErrNoServer, err)
	}
	var out []audio.Source
	for _, name := range devices() {
		if name != "" {
			out = append(out, audio.Source{Name: name, Description: name})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no capture device", audio.ErrNoServer)
	}
	return out, nil
}

// Capture implements audio.Input.
func (in *Input) Capture(ctx context.Context, o audio.CaptureOptions) (audio.Capture, error) {
	if !o.Format.Valid() {
		return nil, fmt.Errorf("winmm: unsupported capture format %d Hz × %d", o.Format.Rate, o.Format.Channels)
	}
	if err := winmm.Load(); err != nil {
		return nil, fmt.Errorf("%w: winmm: %v", audio.ErrNoServer, err)
	}
	if o.Chunk <= 0 {
		o.Chunk = 100 * time.Millisecond
	}
	dev := uintptr(waveMapper)
	if o.Source != "" {
		for i, name := range devices() {
			if name == o.Source {
				dev = uintptr(i)
			}
		}
	}
	ev, _, err := procCreateEventW.Call(0, 0, 0, 0)
	if ev == 0 {
		return nil, fmt.Errorf("winmm: CreateEvent: %v", err)
	}
	f := o.Format
	wf := waveFormatEx{FormatTag: 1, Channels: uint16(f.Channels), SamplesPerSec: uint32(f.Rate),
		AvgBytesPerSec: uint32(f.BytesPerSecond()), BlockAlign: uint16(2 * f.Channels), BitsPerSample: 16}
	c := &capture{format: f, ev: ev, ready: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	if r, _, _ := procWaveInOpen.Call(uintptr(unsafe.Pointer(&c.h)), dev, uintptr(unsafe.Pointer(&wf)), ev, 0, callbackEvent); r != 0 {
		procCloseHandle.Call(ev)
		return nil, fmt.Errorf("%w: waveInOpen: MMSYSERR %d", audio.ErrNoServer, r)
	}
	size := f.Samples(o.Chunk) * 2
	for i := range buffers {
		b := make([]byte, size)
		h := &waveHdr{Data: &b[0], BufferLength: uint32(size)}
		c.pin.Pin(&b[0])
		c.pin.Pin(h)
		c.bufs[i], c.hdrs[i] = b, h
		if r, _, _ := procWaveInPrepareHeader.Call(c.h, uintptr(unsafe.Pointer(h)), unsafe.Sizeof(*h)); r != 0 {
			c.release()
			return nil, fmt.Errorf("winmm: waveInPrepareHeader: MMSYSERR %d", r)
		}
		if r, _, _ := procWaveInAddBuffer.Call(c.h, uintptr(unsafe.Pointer(h)), unsafe.Sizeof(*h)); r != 0 {
			c.release()
			return nil, fmt.Errorf("winmm: waveInAddBuffer: MMSYSERR %d", r)
		}
	}
	if r, _, _ := procWaveInStart.Call(c.h); r != 0 {
		c.release()
		return nil, fmt.Errorf("winmm: waveInStart: MMSYSERR %d", r)
	}
	go c.loop()
	return c, nil
}

type chunk struct {
	s  []int16
	at time.Time
}

// capture is one open waveIn device.
type capture struct {
	format audio.Format
	h      uintptr
	ev     uintptr
	pin    runtime.Pinner
	bufs   [buffers][]byte
	hdrs   [buffers]*waveHdr

	stop, done chan struct{}
	once       sync.Once

	mu     sync.Mutex
	queue  []chunk
	closed bool
	ready  chan struct{}
}

// loop hands filled buffers to Read, in order, and queues them again.
func (c *capture) loop() {
	defer close(c.done)
	next := 0
	for {
		select {
		case <-c.stop:
			return
		default:
		}
		procWaitForSingleObject.Call(c.ev, 200)
		for {
			h := c.hdrs[next]
			if atomic.LoadUint32(&h.Flags)&whdrDone == 0 {
				break
			}
			n := int(atomic.LoadUint32(&h.BytesRecorded)) / 2
			s := make([]int16, n)
			for i := range s {
				s[i] = int16(binary.LittleEndian.Uint16(c.bufs[next][2*i:]))
			}
			c.push(chunk{s: s, at: time.Now().Add(-c.format.Duration(n))})
			select {
			case <-c.stop:
				return
			default:
			}
			atomic.StoreUint32(&h.Flags, atomic.LoadUint32(&h.Flags)&^whdrDone)
			procWaveInAddBuffer.Call(c.h, uintptr(unsafe.Pointer(h)), unsafe.Sizeof(*h))
			next = (next + 1) % buffers
		}
	}
}

func (c *capture) push(ch chunk) {
	c.mu.Lock()
	if len(c.queue) >= queueLimit {
		c.queue = c.queue[1:]
	}
	c.queue = append(c.queue, ch)
	c.mu.Unlock()
	select {
	case c.ready <- struct{}{}:
	default:
	}
}

// Read implements audio.Capture.
func (c *capture) Read(ctx context.Context) ([]int16, time.Time, error) {
	for {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return nil, time.Time{}, audio.ErrClosed
		}
		if len(c.queue) > 0 {
			ch := c.queue[0]
			c.queue = c.queue[1:]
			c.mu.Unlock()
			return ch.s, ch.at, nil
		}
		c.mu.Unlock()
		select {
		case <-c.ready:
		case <-c.done:
			return nil, time.Time{}, audio.ErrClosed
		case <-ctx.Done():
			return nil, time.Time{}, ctx.Err()
		}
	}
}

// Close implements audio.Capture.
func (c *capture) Close() error {
	c.once.Do(func() {
		c.mu.Lock()
		c.closed = true
		c.mu.Unlock()
		close(c.stop)
		<-c.done
		c.release()
	})
	return nil
}

// release resets and closes the device and frees what it held.
func (c *capture) release() {
	procWaveInReset.Call(c.h)
	for _, h := range c.hdrs {
		if h != nil {
			procWaveInUnprepare.Call(c.h, uintptr(unsafe.Pointer(h)), unsafe.Sizeof(*h))
		}
	}
	procWaveInClose.Call(c.h)
	procCloseHandle.Call(c.ev)
	c.pin.Unpin()
}
