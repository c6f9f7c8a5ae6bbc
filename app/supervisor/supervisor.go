package supervisor

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Limits of the restart policy.
const (
	FirstDelay   = 500 * time.Millisecond
	MaxDelay     = 8 * time.Second
	GiveUpCount  = 5
	GiveUpWindow = time.Minute
	// QuietReset is how long a given-up child stays down before the
	// supervisor tries it again with a fresh budget (Revive: at once).
	QuietReset = time.Minute
	// ExitGrace is how long Stop lets a child exit on its own (a window
	// process quits when the core's view server closes) before SIGTERM.
	ExitGrace = 2 * time.Second
	// StopGrace is how long a child has after SIGTERM before SIGKILL.
	StopGrace = 3 * time.Second
)

// Spec describes one child.
type Spec struct {
	// Name identifies the child in logs, e.g. "pet:p-1a2b3c4d".
	Name string
	Path string
	Args []string
	// Env is added to the core's environment.
	Env []string
	// Once runs the child once: when it exits it is not restarted (a
	// window the user opens on demand, such as settings).
	Once bool
}

// Process is a started child.
type Process interface {
	// Wait blocks until the child exits.
	Wait() error
	// Signal asks the child to stop (SIGTERM) or kills it (SIGKILL).
	Signal(os.Signal) error
	Pid() int
}

// Launcher starts a child. Exec is the real one; tests pass their own.
type Launcher func(Spec) (Process, error)

// Supervisor runs children. The zero value is not usable; call New.
type Supervisor struct {
	launch Launcher
	log    *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	procs   map[string]Process
	cancels map[string]context.CancelFunc // supervised names
	ending  map[string]bool               // names StopOne is ending
	next    map[string]Spec               // Runs waiting for an ending name
	gaveUp  map[string]chan struct{}      // given-up names; a send revives
}

// New returns a Supervisor using launch (nil means Exec).
func New(launch Launcher, log *slog.Logger) *Supervisor {
	if launch == nil {
		launch = Exec
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Supervisor{launch: launch, log: log, ctx: ctx, cancel: cancel, procs: map[string]Process{},
		cancels: map[string]context.CancelFunc{}, ending: map[string]bool{}, next: map[string]Spec{}, gaveUp: map[string]chan struct{}{}}
}

// Run starts the child and keeps it running until Stop or StopOne, and
// reports whether it started one. A child that fails GiveUpCount times
// within GiveUpWindow is given up: it stays down (still supervised) until
// QuietReset has passed or Revive is called, then starts again with a
// fresh budget. Running a name that is
// already supervised does nothing (false), unless StopOne is ending it:
// then the new spec starts as soon as the old child is gone (true).
func (s *Supervisor) Run(spec Spec) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return false
	}
	if _, ok := s.cancels[spec.Name]; ok {
		if !s.ending[spec.Name] {
			return false
		}
		s.next[spec.Name] = spec
		return true
	}
	s.runLocked(spec)
	return true
}

func (s *Supervisor) runLocked(spec Spec) {
	ctx, cancel := context.WithCancel(s.ctx)
	s.cancels[spec.Name] = cancel
	s.wg.Go(func() {
		s.keep(ctx, spec)
		cancel()
		s.mu.Lock()
		defer s.mu.Unlock()
		delete(s.cancels, spec.Name)
		delete(s.ending, spec.Name)
		if next, ok := s.next[spec.Name]; ok {
			delete(s.next, spec.Name)
			if s.ctx.Err() == nil {
				s.runLocked(next)
			}
		}
	})
}

// Supervised reports whether name is being kept running (it may be
// between a crash and its restart).
func (s *Supervisor) Supervised(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.cancels[name]
	return ok
}

// StopOne ends the named child as Stop ends every child (ExitGrace, then
// SIGTERM, then SIGKILL) and does not restart it. It returns without
// waiting; a Run of the name meanwhile starts once the child is gone.
func (s *Supervisor) StopOne(name string) {
	s.mu.Lock()
	cancel := s.cancels[name]
	if cancel != nil {
		s.ending[name] = true
	}
	delete(s.next, name) // a Run queued behind an earlier StopOne is withdrawn
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Revive starts a given-up child again at once, with a fresh budget (the
// user asked for its window), and reports whether name was given up.
func (s *Supervisor) Revive(name string) bool {
	s.mu.Lock()
	ch := s.gaveUp[name]
	s.mu.Unlock()
	if ch == nil {
		return false
	}
	select {
	case ch <- struct{}{}:
	default: // already being revived
	}
	return true
}

// GaveUp reports whether the named child is given up now.
func (s *Supervisor) GaveUp(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gaveUp[name] != nil
}

// Running reports whether the named child is alive now.
func (s *Supervisor) Running(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.procs[name] != nil
}

// Stop ends every child and waits for the supervision loops to return: a
// child gets ExitGrace to exit by itself, then SIGTERM, then SIGKILL after
// StopGrace. No child is restarted once Stop is called.
func (s *Supervisor) Stop() {
	s.cancel()
	s.wg.Wait()
}

func (s *Supervisor) keep(ctx context.Context, spec Spec) {
	var failures []time.Time
	delay := FirstDelay
	for {
		if ctx.Err() != nil {
			return
		}
		started := time.Now()
		p, err := s.launch(spec)
		if err == nil {
			s.log.Info("window_start", "window", spec.Name, "pid", p.Pid())
			err = s.wait(ctx, spec, p)
			if ctx.Err() != nil {
				s.log.Info("window_stopped", "window", spec.Name)
				return
			}
		}
		now := time.Now()
		if spec.Once {
			s.log.Info("window_exit", "window", spec.Name, "err", errString(err), "ran_ms", now.Sub(started).Milliseconds())
			return
		}
		s.log.Warn("window_exit", "window", spec.Name, "err", errString(err), "ran_ms", now.Sub(started).Milliseconds())
		// A child that ran a full window since it started resets the policy.
		if now.Sub(started) >= GiveUpWindow {
			delay = FirstDelay
		}
		failures = append(failures, now)
		for len(failures) > 0 && now.Sub(failures[0]) > GiveUpWindow {
			failures = failures[1:]
		}
		if len(failures) >= GiveUpCount {
			s.log.Error("window_give_up", "window", spec.Name, "failures", len(failures), "within_s", int(GiveUpWindow.Seconds()))
			if !s.waitGivenUp(ctx, spec.Name) {
				return
			}
			failures, delay = nil, FirstDelay
			continue
		}
		s.log.Info("window_restart", "window", spec.Name, "delay_ms", delay.Milliseconds())
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		delay = min(delay*2, MaxDelay)
	}
}

// waitGivenUp keeps a given-up child down until QuietReset passes or
// Revive is called (true: start it again), or ctx ends (false).
func (s *Supervisor) waitGivenUp(ctx context.Context, name string) bool {
	revive := make(chan struct{}, 1)
	s.mu.Lock()
	s.gaveUp[name] = revive
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.gaveUp, name)
		s.mu.Unlock()
	}()
	t := time.NewTimer(QuietReset)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		s.log.Info("window_give_up_reset", "window", name, "reason", "quiet")
	case <-revive:
		s.log.Info("window_give_up_reset", "window", name, "reason", "revived")
	}
	return true
}

// wait waits for p; after Stop or StopOne it escalates from waiting (ExitGrace) to
// SIGTERM to SIGKILL (after StopGrace).
func (s *Supervisor) wait(ctx context.Context, spec Spec, p Process) error {
	s.mu.Lock()
	s.procs[spec.Name] = p
	s.mu.Unlock()
	exited := make(chan error, 1)
	go func() { exited <- p.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-ctx.Done():
		err = s.escalate(spec, p, exited)
	}
	s.mu.Lock()
	delete(s.procs, spec.Name)
	s.mu.Unlock()
	return err
}

func (s *Supervisor) escalate(spec Spec, p Process, exited <-chan error) error {
	steps := []struct {
		wait time.Duration
		sig  os.Signal
		line string
	}{{ExitGrace, syscall.SIGTERM, "window_terminate"}, {StopGrace, syscall.SIGKILL, "window_kill"}}
	for _, st := range steps {
		t := time.NewTimer(st.wait)
		select {
		case err := <-exited:
			t.Stop()
			return err
		case <-t.C:
		}
		s.log.Warn(st.line, "window", spec.Name)
		p.Signal(st.sig)
	}
	return <-exited
}

func errString(err error) string {
	if err == nil {
		return "exited 0"
	}
	return err.Error()
}

// childEnv is base with extra's variables set: a variable extra names is
// taken out of base first, so the child sees exactly one value — the
// spec's (a window's token never comes from the core's own environment).
func childEnv(base, extra []string) []string {
	names := map[string]bool{}
	for _, kv := range extra {
		if i := strings.IndexByte(kv, '='); i > 0 {
			names[kv[:i]] = true
		}
	}
	out := make([]string, 0, len(base)+len(extra))
	for _, kv := range base {
		if i := strings.IndexByte(kv, '='); i > 0 && names[kv[:i]] {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}

type execProcess struct{ cmd *exec.Cmd }

func (p execProcess) Wait() error                { return p.cmd.Wait() }
func (p execProcess) Signal(sig os.Signal) error { return signalChild(p.cmd.Process, sig) }
func (p execProcess) Pid() int                   { return p.cmd.Process.Pid }

// Exec starts spec as an OS process sharing the core's stdout and stderr.
func Exec(spec Spec) (Process, error) {
	cmd := exec.Command(spec.Path, spec.Args...)
	cmd.Env = childEnv(os.Environ(), spec.Env)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	// The child dies with the core even if the core is killed hard
	// (exec_linux.go, exec_windows.go).
	cmd.SysProcAttr = childAttr()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("supervisor: start %s: %w", spec.Name, err)
	}
	if err := tieToCore(cmd.Process); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("supervisor: start %s: %w", spec.Name, err)
	}
	return execProcess{cmd}, nil
}
