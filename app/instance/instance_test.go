package instance

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// The test binary doubles as a primary in its own process (for kill -9):
// with YUI_INSTANCE_HELPER_DIR set it acquires that dir, prints "ready",
// then one line per hand-over ("args a b c"), and waits to be killed.
func TestMain(m *testing.M) {
	if dir := os.Getenv("YUI_INSTANCE_HELPER_DIR"); dir != "" {
		p, err := Acquire(dir)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(3)
		}
		out := make(chan string, 16)
		p.Serve(func(r Request) error { out <- "args " + strings.Join(r.Args, " "); return nil }, nil)
		fmt.Println("ready")
		for l := range out {
			fmt.Println(l)
		}
	}
	os.Exit(m.Run())
}

func helper(t *testing.T, dir string) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "YUI_INSTANCE_HELPER_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "ready" {
		t.Fatalf("helper did not start: %q %v", sc.Text(), sc.Err())
	}
	return cmd, sc
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestSecondLaunchHandsOver(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	got := make(chan Request, 1)
	p.Serve(func(r Request) error { got <- r; return nil }, nil)

	if _, err := Acquire(dir); !errors.Is(err, ErrRunning) {
		t.Fatalf("second Acquire: %v, want ErrRunning", err)
	}
	rep, err := Send(ctx(t), dir, []string{"--settings"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Pid != os.Getpid() {
		t.Errorf("reply pid %d, want %d", rep.Pid, os.Getpid())
	}
	r := <-got
	if !slices.Equal(r.Args, []string{"--settings"}) || r.Pid != os.Getpid() || r.WaitExit {
		t.Errorf("handed %+v", r)
	}
}

func TestHandlerErrorReachesSender(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Serve(func(r Request) error { return errors.New("unknown flag --frob") }, nil)
	_, err = Send(ctx(t), dir, []string{"--frob"}, false)
	if err == nil || !strings.Contains(err.Error(), "unknown flag --frob") {
		t.Fatalf("Send = %v, want the handler's error", err)
	}
}

func TestSendWithNothingRunning(t *testing.T) {
	dir := t.TempDir()
	if _, err := Send(ctx(t), dir, nil, false); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Send to an empty dir: %v, want ErrNotRunning", err)
	}
	// A lock file and socket left behind, but no holder: still not running.
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if _, err := Send(ctx(t), dir, nil, false); !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Send after Close: %v, want ErrNotRunning", err)
	}
}

func TestTwoConfigDirsCoexist(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	pa, err := Acquire(a)
	if err != nil {
		t.Fatal(err)
	}
	defer pa.Close()
	pb, err := Acquire(b)
	if err != nil {
		t.Fatalf("a second config dir is refused: %v", err)
	}
	defer pb.Close()
	if pa.Addr() == pb.Addr() {
		t.Fatalf("both listen on %s", pa.Addr())
	}
	ga, gb := make(chan string, 1), make(chan string, 1)
	pa.Serve(func(r Request) error { ga <- r.Args[0]; return nil }, nil)
	pb.Serve(func(r Request) error { gb <- r.Args[0]; return nil }, nil)
	if _, err := Send(ctx(t), a, []string{"to-a"}, false); err != nil {
		t.Fatal(err)
	}
	if _, err := Send(ctx(t), b, []string{"to-b"}, false); err != nil {
		t.Fatal(err)
	}
	if x, y := <-ga, <-gb; x != "to-a" || y != "to-b" {
		t.Fatalf("a got %q, b got %q", x, y)
	}
}

func TestKilledPrimaryIsTakenOver(t *testing.T) {
	dir := t.TempDir()
	cmd, lines := helper(t, dir)
	if _, err := Send(ctx(t), dir, []string{"hello"}, false); err != nil {
		t.Fatal(err)
	}
	if !lines.Scan() || lines.Text() != "args hello" {
		t.Fatalf("helper got %q", lines.Text())
	}
	if _, err := Acquire(dir); !errors.Is(err, ErrRunning) {
		t.Fatalf("Acquire while the helper runs: %v", err)
	}
	cmd.Process.Kill() // SIGKILL: no cleanup runs
	cmd.Wait()
	leftBehind(t, dir)
	p, err := Acquire(dir)
	if err != nil {
		t.Fatalf("Acquire after kill -9: %v", err)
	}
	defer p.Close()
	got := make(chan string, 1)
	p.Serve(func(r Request) error { got <- r.Args[0]; return nil }, nil)
	if _, err := Send(ctx(t), dir, []string{"again"}, false); err != nil {
		t.Fatal(err)
	}
	if g := <-got; g != "again" {
		t.Fatalf("new primary got %q", g)
	}
}

func TestWaitExitReturnsWhenPrimaryCloses(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	asked := make(chan struct{})
	p.Serve(func(r Request) error { close(asked); return nil }, nil)
	sent := make(chan error, 1)
	go func() {
		_, err := Send(ctx(t), dir, []string{"--quit"}, true)
		sent <- err
	}()
	<-asked
	// The sender's connection stays open until Close: look at it from the
	// primary's side (the held set) rather than guessing a delay.
	waitHeld(t, p)
	select {
	case err := <-sent:
		t.Fatalf("Send returned before the primary closed: %v", err)
	default:
	}
	p.Close()
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
}

// waitHeld waits until the primary holds a WaitExit connection (it is
// added before the reply is written).
func waitHeld(t *testing.T, p *Primary) {
	t.Helper()
	for {
		p.mu.Lock()
		n := len(p.held)
		p.mu.Unlock()
		if n > 0 {
			return
		}
		select {
		case <-ctx(t).Done():
			t.Fatal("no held connection")
		case <-time.After(time.Millisecond):
		}
	}
}

func TestOversizedRequestRefused(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	called := make(chan struct{}, 1)
	p.Serve(func(r Request) error { called <- struct{}{}; return nil }, nil)
	_, err = Send(ctx(t), dir, []string{strings.Repeat("x", MaxRequest)}, false)
	if err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("Send of an oversized request = %v", err)
	}
	select {
	case <-called:
		t.Fatal("the handler ran for an oversized request")
	default:
	}
	// The primary still answers.
	if _, err := Send(ctx(t), dir, []string{"ok"}, false); err != nil {
		t.Fatal(err)
	}
}

func TestMalformedRequestRefused(t *testing.T) {
	dir := t.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Serve(func(r Request) error { t.Error("handler ran"); return nil }, nil)
	c, err := dial(ctx(t), p.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("not json\n"))
	var rep Reply
	if err := json.NewDecoder(c).Decode(&rep); err != nil {
		t.Fatal(err)
	}
	if rep.Error == "" {
		t.Fatal("no error for a malformed request")
	}
}

func BenchmarkHandOver(b *testing.B) {
	dir := b.TempDir()
	p, err := Acquire(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	p.Serve(func(Request) error { return nil }, nil)
	c := context.Background()
	for b.Loop() {
		if _, err := Send(c, dir, []string{"--settings"}, false); err != nil {
			b.Fatal(err)
		}
	}
}
