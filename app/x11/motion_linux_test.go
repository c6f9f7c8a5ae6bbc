package x11

import (
	"encoding/binary"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
)

// xauthEntry is one X authority record.
func xauthEntry(family uint16, addr, disp, name string, data []byte) []byte {
	var b []byte
	b = binary.BigEndian.AppendUint16(b, family)
	for _, s := range []string{addr, disp, name, string(data)} {
		b = binary.BigEndian.AppendUint16(b, uint16(len(s)))
		b = append(b, s...)
	}
	return b
}

func TestXauthCookieMatchesTheDisplay(t *testing.T) {
	host, _ := os.Hostname()
	want := []byte("0123456789abcdef")
	f := filepath.Join(t.TempDir(), "Xauthority")
	var b []byte
	b = append(b, xauthEntry(256, "elsewhere", "7", "MIT-MAGIC-COOKIE-1", []byte("wrong-host-cookie"))...)
	b = append(b, xauthEntry(256, host, "8", "MIT-MAGIC-COOKIE-1", []byte("other-display!!!"))...)
	b = append(b, xauthEntry(256, host, "7", "MIT-MAGIC-COOKIE-1", want)...)
	if err := os.WriteFile(f, b, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XAUTHORITY", f)
	if name, data := xauthCookie("", "7"); name != "MIT-MAGIC-COOKIE-1" || string(data) != string(want) {
		t.Fatalf("got %q %q", name, data)
	}
	if name, _ := xauthCookie("", "9"); name != "" {
		t.Fatalf("a display with no entry got %q", name)
	}
	if err := os.WriteFile(f, b[:len(b)-3], 0o600); err != nil { // cut short
		t.Fatal(err)
	}
	if name, _ := xauthCookie("", "7"); name != "" {
		t.Fatalf("a cut record got %q", name)
	}
}

// A server without XInputExtension is ErrNoXInput2; a generic event in
// the stream is read whole (its extra words), so what follows is in
// place.
func TestRawStreamFraming(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	c := &rawConn{conn: client}
	go func() {
		defer server.Close()
		buf := make([]byte, 32)
		if _, err := server.Read(buf); err != nil { // QueryExtension
			return
		}
		ge := make([]byte, 32+8)
		ge[0], ge[1] = genericEvent, 131
		binary.LittleEndian.PutUint32(ge[4:], 2)
		binary.LittleEndian.PutUint16(ge[8:], xiRawMotion)
		server.Write(ge)
		rep := make([]byte, 32)
		rep[0] = 1
		binary.LittleEndian.PutUint16(rep[2:], 1) // seq 1, present = 0
		server.Write(rep)
	}()
	if err := c.selectRawMotion(); !errors.Is(err, ErrNoXInput2) {
		t.Fatalf("got %v, want ErrNoXInput2", err)
	}
}
