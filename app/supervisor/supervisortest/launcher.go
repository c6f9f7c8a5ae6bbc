// Package supervisortest has a window launcher for tests of what runs
// windows through app/supervisor: each window is a process that runs
// until it is signalled (or does what the test's Run makes it do), and
// every start is recorded.
package supervisortest

import (
	"os"
	"sync"

	"yui/app/supervisor"
)

// Launcher is a supervisor.Launcher. Fail, when set, is asked before each
// start and fails it with the error it returns. Run, when set, is what
// each started process does (on a goroutine of its own; it may end the
// process with Exit); without it a process idles until signalled. Safe
// from any goroutine.
type Launcher struct {
	Fail func(supervisor.Spec) error
	Run  func(supervisor.Spec, *Proc)

	mu    sync.Mutex
	specs []supervisor.Spec
	procs map[string]*Proc
}

// Launch starts an idle process for sp.
func (l *Launcher) Launch(sp supervisor.Spec) (supervisor.Process, error) {
	if l.Fail != nil {
		if err := l.Fail(sp); err != nil {
			return nil, err
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.specs = append(l.specs, sp)
	p := &Proc{done: make(chan struct{})}
	if l.procs == nil {
		l.procs = map[string]*Proc{}
	}
	l.procs[sp.Name] = p
	if l.Run != nil {
		go l.Run(sp, p)
	}
	return p, nil
}

// Proc is the process last started for the window named name (nil:
// none).
func (l *Launcher) Proc(name string) *Proc {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.procs[name]
}

// Count is how many times the window named name was started.
func (l *Launcher) Count(name string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, sp := range l.specs {
		if sp.Name == name {
			n++
		}
	}
	return n
}

// Specs are the started windows' specs, in order.
func (l *Launcher) Specs() []supervisor.Spec {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]supervisor.Spec(nil), l.specs...)
}

// Proc is an idle window process: it exits when signalled.
type Proc struct {
	done chan struct{}
	once sync.Once
}

// Wait returns once the process was signalled.
func (p *Proc) Wait() error { <-p.done; return nil }

// Pid is a made-up pid.
func (p *Proc) Pid() int { return 1 }

// Signal ends the process.
func (p *Proc) Signal(os.Signal) error {
	p.Exit()
	return nil
}

// Exit ends the process by itself.
func (p *Proc) Exit() { p.once.Do(func() { close(p.done) }) }

// Done is closed once the process was signalled (it ended).
func (p *Proc) Done() <-chan struct{} { return p.done }
