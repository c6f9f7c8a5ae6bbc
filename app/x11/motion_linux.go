package x11

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"

	"github.com/jezek/xgb/xproto"
)

// ErrNoXInput2 means the X server has no XInput 2.2 (XInputExtension), so
// pointer motion outside her window cannot be watched.
var ErrNoXInput2 = errors.New("x11: the X server has no XInput 2.2")

// maxPacket bounds one reply or generic event the motion reader accepts
// (a raw motion event is under 200 bytes).
const maxPacket = 1 << 16

const (
	xiRawMotion     = 17 // XI_RawMotion
	xiAllDevices    = 0  // XIAllDevices
	genericEvent    = 35 // GenericEvent
	xiQueryVersion  = 47 // X_XIQueryVersion
	xiSelectEvents  = 46 // X_XISelectEvents
	opQueryExt      = 98 // QueryExtension
	opGetInputFocus = 43 // GetInputFocus (a round trip)
)

// WatchPointerMotion calls moved on this goroutine each time the pointer
// moves anywhere on the display (not only over her window), until ctx
// ends or the connection breaks; events that queued while moved ran are
// folded into one call. It is event driven: it selects XInput2 raw motion
// (XI_RawMotion) on the root window over a connection of its own and reads
// nothing while the pointer is still. Raw events carry no position: ask
// Display.Pointer for it. A warp (XWarpPointer, as xdotool mousemove does)
// is not device motion and is not reported. It returns ErrNoXInput2 (wrapped) when the
// server lacks XInput 2.2.
//
// jezek/xgb cannot read XInput2's generic events (it assumes 32-byte
// events and loses its place in the stream), so this speaks the few
// requests it needs itself: QueryExtension, XIQueryVersion 2.2 and
// XISelectEvents.
func WatchPointerMotion(ctx context.Context, display string, moved func()) error {
	c, err := dialX(display)
	if err != nil {
		return err
	}
	stop := context.AfterFunc(ctx, func() { c.conn.Close() })
	defer stop()
	defer c.conn.Close()
	if err := c.selectRawMotion(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return err
	}
	events := make(chan struct{}, 1)
	readErr := make(chan error, 1)
	go func() { // reads the stream; moved runs on the caller's goroutine
		for {
			p, err := c.read()
			if err != nil {
				readErr <- err
				close(events)
				return
			}
			if p[0]&0x7f == genericEvent && p[1] == c.xi && binary.LittleEndian.Uint16(p[8:]) == xiRawMotion {
				select {
				case events <- struct{}{}:
				default: // one is pending: fold
				}
			}
		}
	}()
	for range events {
		moved()
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return fmt.Errorf("x11: pointer motion: %w", <-readErr)
}

type rawConn struct {
	conn net.Conn
	root uint32
	xi   byte // XInputExtension's major opcode
	seq  uint16
}

// dialX connects to display (default $DISPLAY) on its local socket or TCP
// and does the connection setup, with the display's MIT-MAGIC-COOKIE-1
// from $XAUTHORITY (or ~/.Xauthority) when there is one.
func dialX(display string) (*rawConn, error) {
	if display == "" {
		display = os.Getenv("DISPLAY")
	}
	colon := strings.LastIndex(display, ":")
	if colon < 0 {
		return nil, fmt.Errorf("x11: bad display %q", display)
	}
	host, num := display[:colon], display[colon+1:]
	screen := 0
	if i := strings.IndexByte(num, '.'); i >= 0 {
		screen, _ = strconv.Atoi(num[i+1:])
		num = num[:i]
	}
	if _, err := strconv.Atoi(num); err != nil {
		return nil, fmt.Errorf("x11: bad display %q", display)
	}
	var conn net.Conn
	var err error
	switch {
	case strings.HasPrefix(host, "/"): // launchd-style socket path
		conn, err = net.Dial("unix", display)
	case host == "" || host == "unix":
		conn, err = net.Dial("unix", "/tmp/.X11-unix/X"+num)
	default:
		n, _ := strconv.Atoi(num)
		conn, err = net.Dial("tcp", net.JoinHostPort(host, strconv.Itoa(6000+n)))
	}
	if err != nil {
		return nil, fmt.Errorf("x11: connect %q: %w", display, err)
	}
	c := &rawConn{conn: conn}
	if err := c.setup(host, num, screen); err != nil {
		conn.Close()
		return nil, fmt.Errorf("x11: connect %q: %w", display, err)
	}
	return c, nil
}

func pad4(n int) int { return (n + 3) &^ 3 }

func (c *rawConn) setup(host, num string, screen int) error {
	name, data := xauthCookie(host, num)
	req := make([]byte, 12+pad4(len(name))+pad4(len(data)))
	req[0] = 'l'
	binary.LittleEndian.PutUint16(req[2:], 11)
	binary.LittleEndian.PutUint16(req[6:], uint16(len(name)))
	binary.LittleEndian.PutUint16(req[8:], uint16(len(data)))
	copy(req[12:], name)
	copy(req[12+pad4(len(name)):], data)
	if _, err := c.conn.Write(req); err != nil {
		return err
	}
	head := make([]byte, 8)
	if _, err := io.ReadFull(c.conn, head); err != nil {
		return err
	}
	n := int(binary.LittleEndian.Uint16(head[6:])) * 4
	if n > maxPacket*4 {
		return errors.New("setup reply too large")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.conn, body); err != nil {
		return err
	}
	if head[0] != 1 {
		reason := string(body[:min(int(head[1]), len(body))])
		return fmt.Errorf("refused: %s", strings.TrimSpace(reason))
	}
	// The roots follow the fixed part, the vendor and the pixmap formats.
	if len(body) < 32 {
		return errors.New("short setup reply")
	}
	vendor := int(binary.LittleEndian.Uint16(body[16:]))
	screens, formats := int(body[20]), int(body[21])
	off := 32 + pad4(vendor) + 8*formats
	for i := 0; ; i++ {
		if i >= screens || off+40 > len(body) {
			return fmt.Errorf("no screen %d", screen)
		}
		if i == screen {
			c.root = binary.LittleEndian.Uint32(body[off:])
			return nil
		}
		depths := int(body[off+39])
		off += 40
		for range depths {
			if off+8 > len(body) {
				return errors.New("short setup reply")
			}
			off += 8 + 24*int(binary.LittleEndian.Uint16(body[off+2:]))
		}
	}
}

// xauthCookie finds the display's MIT-MAGIC-COOKIE-1 in the X authority
// file, or returns none (the server may not need one).
func xauthCookie(host, num string) (string, []byte) {
	fname := os.Getenv("XAUTHORITY")
	if fname == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", nil
		}
		fname = home + "/.Xauthority"
	}
	b, err := os.ReadFile(fname)
	if err != nil || len(b) > 1<<20 {
		return "", nil
	}
	if host == "" || host == "unix" || host == "localhost" {
		host, _ = os.Hostname()
	}
	str := func() (string, bool) {
		if len(b) < 2 {
			return "", false
		}
		n := int(binary.BigEndian.Uint16(b))
		if len(b) < 2+n {
			return "", false
		}
		s := string(b[2 : 2+n])
		b = b[2+n:]
		return s, true
	}
	for len(b) >= 2 {
		family := binary.BigEndian.Uint16(b)
		b = b[2:]
		addr, ok1 := str()
		disp, ok2 := str()
		name, ok3 := str()
		data, ok4 := str()
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return "", nil
		}
		const familyLocal, familyWild = 256, 65535
		if (family == familyWild || family == familyLocal && addr == host) &&
			(disp == "" || disp == num) && name == "MIT-MAGIC-COOKIE-1" {
			return name, []byte(data)
		}
	}
	return "", nil
}

// send writes one request and returns its sequence number.
func (c *rawConn) send(req []byte) (uint16, error) {
	binary.LittleEndian.PutUint16(req[2:], uint16(len(req)/4))
	c.seq++
	_, err := c.conn.Write(req)
	return c.seq, err
}

// read returns the next error, reply or event, whole.
func (c *rawConn) read() ([]byte, error) {
	p := make([]byte, 32)
	if _, err := io.ReadFull(c.conn, p); err != nil {
		return nil, err
	}
	if p[0] == 1 || p[0]&0x7f == genericEvent {
		n := int(binary.LittleEndian.Uint32(p[4:]))
		if n > maxPacket/4 {
			return nil, fmt.Errorf("a packet of %d words is over the bound", n)
		}
		p = append(p, make([]byte, n*4)...)
		if _, err := io.ReadFull(c.conn, p[32:]); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// reply waits for seq's reply (events before it are dropped: nothing is
// selected yet when this is used).
func (c *rawConn) reply(seq uint16, what string) ([]byte, error) {
	for {
		p, err := c.read()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		if p[0] > 1 || binary.LittleEndian.Uint16(p[2:]) != seq {
			continue
		}
		if p[0] == 0 {
			return nil, fmt.Errorf("%s: X error %d", what, p[1])
		}
		return p, nil
	}
}

func (c *rawConn) selectRawMotion() error {
	const ext = "XInputExtension"
	req := make([]byte, 8+pad4(len(ext)))
	req[0] = opQueryExt
	binary.LittleEndian.PutUint16(req[4:], uint16(len(ext)))
	copy(req[8:], ext)
	seq, err := c.send(req)
	if err != nil {
		return fmt.Errorf("x11: query XInput: %w", err)
	}
	p, err := c.reply(seq, "x11: query XInput")
	if err != nil {
		return err
	}
	if p[8] == 0 {
		return ErrNoXInput2
	}
	c.xi = p[9]

	req = make([]byte, 8)
	req[0], req[1] = c.xi, xiQueryVersion
	binary.LittleEndian.PutUint16(req[4:], 2)
	binary.LittleEndian.PutUint16(req[6:], 2)
	if seq, err = c.send(req); err != nil {
		return fmt.Errorf("x11: XIQueryVersion: %w", err)
	}
	if p, err = c.reply(seq, "x11: XIQueryVersion"); err != nil {
		return err
	}
	if major, minor := binary.LittleEndian.Uint16(p[8:]), binary.LittleEndian.Uint16(p[10:]); major < 2 || major == 2 && minor < 2 {
		return fmt.Errorf("%w (it has %d.%d)", ErrNoXInput2, major, minor)
	}

	req = make([]byte, 20)
	req[0], req[1] = c.xi, xiSelectEvents
	binary.LittleEndian.PutUint32(req[4:], c.root)
	binary.LittleEndian.PutUint16(req[8:], 1) // one mask
	binary.LittleEndian.PutUint16(req[12:], xiAllDevices)
	binary.LittleEndian.PutUint16(req[14:], 1) // one word of mask
	binary.LittleEndian.PutUint32(req[16:], 1<<xiRawMotion)
	if _, err = c.send(req); err != nil {
		return fmt.Errorf("x11: XISelectEvents: %w", err)
	}
	// A round trip: an error for the selection arrives before its reply.
	req = make([]byte, 4)
	req[0] = opGetInputFocus
	if seq, err = c.send(req); err != nil {
		return fmt.Errorf("x11: XISelectEvents: %w", err)
	}
	for {
		p, err := c.read()
		if err != nil {
			return fmt.Errorf("x11: XISelectEvents: %w", err)
		}
		if p[0] == 0 {
			return fmt.Errorf("x11: XISelectEvents: X error %d", p[1])
		}
		if p[0] == 1 && binary.LittleEndian.Uint16(p[2:]) == seq {
			return nil
		}
	}
}

// Pointer is where the pointer is on the screen (root coordinates).
func (d *Display) Pointer() (x, y int, err error) {
	r, err := xproto.QueryPointer(d.conn, d.root).Reply()
	if err != nil {
		return 0, 0, fmt.Errorf("x11: query pointer: %w", err)
	}
	return int(r.RootX), int(r.RootY), nil
}
