package pulsetest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/audio/pulse"
)

// Sink names of the private server. Speaker is the default sink.
const (
	Speaker = "speaker"
	Other   = "headphones"
	// Mic is the microphone of a server started WithMic: a null sink
	// whose monitor, the default source, is what the user "says": play
	// into it and a capture hears it.
	Mic = "mic"
)

// Server is a running private PulseAudio.
type Server struct {
	// Addr is the server string clients use ("unix:/…/native").
	Addr string
	dir  string
	cmd  *exec.Cmd
	log  *lockedBuffer
	done chan struct{}
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Start runs a private server for the test and stops it at cleanup. It
// waits until the server answers on its socket. Without a pulseaudio
// binary the test is skipped, or fails when $CI is "true".
func Start(t testing.TB) *Server { t.Helper(); return start(t, false) }

// StartWithMic is Start with a third null sink, Mic, whose monitor is the
// default source: the listening tests play the user's speech into it.
func StartWithMic(t testing.TB) *Server { t.Helper(); return start(t, true) }

func start(t testing.TB, mic bool) *Server {
	t.Helper()
	if _, err := exec.LookPath("pulseaudio"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pulsetest: no pulseaudio binary (CI=true: the sound server tests must run): %v", err)
		}
		t.Skipf("pulsetest: no pulseaudio binary: %v", err)
	}
	run := Run
	if mic {
		run = RunWithMic
	}
	s, err := run()
	if err != nil {
		t.Fatalf("pulsetest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Run starts a private server outside a test (benchmarks); Close stops it
// and removes its directory.
func Run() (*Server, error) { return runServer(false) }

// RunWithMic is Run with the Mic sink (StartWithMic).
func RunWithMic() (*Server, error) { return runServer(true) }

func runServer(mic bool) (*Server, error) {
	bin, err := exec.LookPath("pulseaudio")
	if err != nil {
		return nil, err
	}
	// A short path: unix socket paths are limited to 108 bytes.
	dir, err := os.MkdirTemp("", "yui-pa-")
	if err != nil {
		return nil, err
	}
	for _, d := range []string{"run", "home", "config"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	sock := filepath.Join(dir, "native")
	lines := []string{
		"load-module module-null-sink sink_name=" + Speaker + " sink_properties=device.description=Speaker rate=48000 channels=1",
		"load-module module-null-sink sink_name=" + Other + " sink_properties=device.description=Headphones rate=48000 channels=1",
	}
	if mic {
		lines = append(lines, "load-module module-null-sink sink_name="+Mic+" sink_properties=device.description=Microphone rate=16000 channels=1")
	}
	lines = append(lines,
		"load-module module-native-protocol-unix socket="+sock+" auth-anonymous=1",
		"set-default-sink "+Speaker)
	if mic {
		lines = append(lines, "set-default-source "+Mic+".monitor")
	}
	script := strings.Join(append(lines, ""), "\n")
	scriptPath := filepath.Join(dir, "server.pa")
	if err := os.WriteFile(scriptPath, []byte(script), 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &Server{Addr: "unix:" + sock, dir: dir, log: &lockedBuffer{}, done: make(chan struct{})}
	s.cmd = exec.Command(bin, "-n", "-F", scriptPath, "--daemonize=no", "--exit-idle-time=-1",
		"--system=false", "--use-pid-file=no", "--realtime=no", "--high-priority=no",
		"--log-target=stderr", "--log-level=notice")
	s.cmd.Env = append(cleanEnv(),
		"HOME="+filepath.Join(dir, "home"),
		"XDG_RUNTIME_DIR="+filepath.Join(dir, "run"),
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"),
	)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start pulseaudio: %w", err)
	}
	go func() {
		s.cmd.Wait()
		close(s.done)
	}()
	if err := s.waitReady(10 * time.Second); err != nil {
		s.Close()
		return nil, fmt.Errorf("%w\n%s", err, s.log.String())
	}
	return s, nil
}

// Close stops the server and removes its directory.
func (s *Server) Close() {
	s.stop()
	os.RemoveAll(s.dir)
}

// cleanEnv is the environment without anything that points a PulseAudio
// process at another server or session bus.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "PULSE_SERVER", "PULSE_COOKIE", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOME", "XDG_CONFIG_HOME":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// waitReady waits until a client can talk to the server (it answers a
// server-info request), or the process ends, or limit passes.
func (s *Server) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	out := pulse.New(pulse.Options{Server: s.Addr, RetryAfter: time.Nanosecond})
	defer out.Close()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := out.Server(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("pulseaudio exited: %v", s.cmd.ProcessState)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pulseaudio did not answer within %v: %v", limit, err)
		}
		// Polling the socket is waiting on the thing awaited: the server
		// creates it when it is ready.
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops the server now (tests of a server going away); cleanup
// does it otherwise.
func (s *Server) Stop() { s.stop() }

func (s *Server) stop() {
	if s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
}

// Record starts recording sink's monitor at rate Hz mono; it stops at
// cleanup (outside a test: pulse.Record with s.Addr).
func (s *Server) Record(t testing.TB, sink string, rate int) *pulse.Recorder {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r, err := pulse.Record(ctx, s.Addr, sink+".monitor", rate)
	if err != nil {
		t.Fatalf("pulsetest: %v", err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}
