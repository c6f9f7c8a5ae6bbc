package supervisor

import (
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// Stopping children: terminate, kill the stubborn, let one exit by itself.

func TestStopTerminatesAndKillsStubborn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{stub: true}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "pet:a"})
		synctest.Wait()
		t0 := time.Now()
		s.Stop()
		if d := time.Since(t0); d != ExitGrace+StopGrace {
			t.Fatalf("stop took %v, want %v", d, ExitGrace+StopGrace)
		}
		p := l.last()
		if len(p.signals) != 2 || p.signals[0] != syscall.SIGTERM || p.signals[1] != syscall.SIGKILL {
			t.Fatalf("signals %v", p.signals)
		}
		if l.count() != 1 {
			t.Fatal("restarted while stopping")
		}
	})
}

func TestStopTerminatesChildThatDoesNotExitByItself(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "pet:a"})
		s.Run(Spec{Name: "pet:b"})
		synctest.Wait()
		t0 := time.Now()
		s.Stop()
		if d := time.Since(t0); d != ExitGrace {
			t.Fatalf("stop took %v, want %v then SIGTERM", d, ExitGrace)
		}
		if s.Running("pet:a") || s.Running("pet:b") {
			t.Fatal("still running")
		}
		for _, p := range l.procs {
			if len(p.signals) != 1 || p.signals[0] != syscall.SIGTERM {
				t.Fatalf("signals %v", p.signals)
			}
		}
	})
}

func TestStopLetsChildExitByItselfWithoutSignals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "pet:a"})
		synctest.Wait()
		go func() {
			time.Sleep(500 * time.Millisecond) // the window notices the core closing
			l.last().exit <- nil
		}()
		t0 := time.Now()
		s.Stop()
		if d := time.Since(t0); d != 500*time.Millisecond {
			t.Fatalf("stop took %v", d)
		}
		if p := l.last(); len(p.signals) != 0 {
			t.Fatalf("signalled a child that exited by itself: %v", p.signals)
		}
		if l.count() != 1 {
			t.Fatal("restarted after Stop")
		}
	})
}
