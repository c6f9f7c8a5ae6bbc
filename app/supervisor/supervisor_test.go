package supervisor

import (
	"bytes"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// fakeProc exits when told to, or on SIGTERM unless stubborn.
type fakeProc struct {
	exit     chan error
	stubborn bool
	mu       sync.Mutex
	signals  []os.Signal
}

func (p *fakeProc) Wait() error { return <-p.exit }
func (p *fakeProc) Pid() int    { return 42 }
func (p *fakeProc) Signal(s os.Signal) error {
	p.mu.Lock()
	p.signals = append(p.signals, s)
	p.mu.Unlock()
	if s == syscall.SIGKILL || !p.stubborn {
		select {
		case p.exit <- errors.New("signalled"):
		default:
		}
	}
	return nil
}

// lockedBuffer is a log sink safe to read while the supervisor writes.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type fakeLauncher struct {
	mu     sync.Mutex
	starts []time.Time
	procs  []*fakeProc
	named  map[string]*fakeProc // the last start of each name
	stub   bool
}

func (l *fakeLauncher) launch(spec Spec) (Process, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := &fakeProc{exit: make(chan error, 1), stubborn: l.stub}
	if l.named == nil {
		l.named = map[string]*fakeProc{}
	}
	l.named[spec.Name] = p
	l.starts = append(l.starts, time.Now())
	l.procs = append(l.procs, p)
	return p, nil
}

// crashFiveTimes ends the running child five times, 10 s apart (fake
// time, inside a synctest bubble): GiveUpCount failures within
// GiveUpWindow. It returns when everything in the bubble is blocked again.
func (l *fakeLauncher) crashFiveTimes() {
	for range GiveUpCount {
		synctest.Wait()
		l.last().exit <- errors.New("crash")
		time.Sleep(10 * time.Second)
	}
	synctest.Wait()
}

func (l *fakeLauncher) last() *fakeProc {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.procs[len(l.procs)-1]
}

func (l *fakeLauncher) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.procs)
}

func TestRestartsWithGrowingDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		defer s.Stop()
		s.Run(Spec{Name: "pet:a"})
		synctest.Wait()
		var crashes []time.Time
		for range 4 {
			crashes = append(crashes, time.Now())
			l.last().exit <- errors.New("crash")
			time.Sleep(14 * time.Second) // fake time: let the restart happen
			synctest.Wait()
		}
		if l.count() != 5 {
			t.Fatalf("starts %d, want 5", l.count())
		}
		want := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second}
		for i := range want {
			if got := l.starts[i+1].Sub(crashes[i]); got != want[i] {
				t.Fatalf("restart %d after %v, want %v", i, got, want[i])
			}
		}
	})
}

func TestGivesUpAfterFiveFailuresInAMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var buf lockedBuffer // the supervisor logs from its own goroutines
		l := &fakeLauncher{}
		s := New(l.launch, slog.New(slog.NewJSONHandler(&buf, nil)))
		defer s.Stop()
		s.Run(Spec{Name: "pet:a"})
		l.crashFiveTimes()
		if l.count() != 5 || !s.GaveUp("pet:a") || !s.Supervised("pet:a") {
			t.Fatalf("starts %d given up %v: want 5 then give up", l.count(), s.GaveUp("pet:a"))
		}
		if !strings.Contains(buf.String(), `"window_give_up"`) {
			t.Fatalf("no give-up line: %s", buf.String())
		}
		// Down for a quiet minute (the give-up began after the 5th crash,
		// 10 s ago)...
		time.Sleep(QuietReset - 10*time.Second - time.Millisecond)
		synctest.Wait()
		if l.count() != 5 {
			t.Fatalf("started again %d before a quiet minute passed", l.count()-5)
		}
		// ...then tried again with a fresh budget.
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if l.count() != 6 || s.GaveUp("pet:a") || !strings.Contains(buf.String(), `"reason":"quiet"`) {
			t.Fatalf("starts %d given up %v after a quiet minute: %s", l.count(), s.GaveUp("pet:a"), buf.String())
		}
		for range 4 {
			l.last().exit <- errors.New("crash")
			time.Sleep(10 * time.Second)
			synctest.Wait()
		}
		if l.count() != 10 || s.GaveUp("pet:a") {
			t.Fatalf("a fresh budget: starts %d given up %v, want 10 and still trying", l.count(), s.GaveUp("pet:a"))
		}
		s.Stop()
	})
}

// TestReviveBringsAGivenUpChildBackAtOnce is the pet menu's or tray's
// Show for a window the supervisor gave up on.
func TestReviveBringsAGivenUpChildBackAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		defer s.Stop()
		if s.Revive("pet:a") {
			t.Fatal("revived an unknown child")
		}
		s.Run(Spec{Name: "pet:a"})
		synctest.Wait()
		if s.Revive("pet:a") {
			t.Fatal("revived a running child")
		}
		l.crashFiveTimes()
		if !s.GaveUp("pet:a") || l.count() != 5 {
			t.Fatalf("given up %v starts %d", s.GaveUp("pet:a"), l.count())
		}
		if s.Run(Spec{Name: "pet:a"}) {
			t.Fatal("Run of a supervised name started a second child")
		}
		if !s.Revive("pet:a") {
			t.Fatal("Revive did not find the given-up child")
		}
		synctest.Wait()
		if l.count() != 6 || s.GaveUp("pet:a") {
			t.Fatalf("starts %d given up %v after Revive", l.count(), s.GaveUp("pet:a"))
		}
		s.Stop()
	})
}

// TestStopEndsAGivenUpChildsWait: Stop and StopOne do not wait out the
// quiet minute.
func TestStopEndsAGivenUpChildsWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "pet:a"})
		l.crashFiveTimes()
		s.StopOne("pet:a")
		synctest.Wait()
		if s.Supervised("pet:a") || s.GaveUp("pet:a") {
			t.Fatal("StopOne left the given-up child supervised")
		}
		s.Stop()
		if l.count() != 5 {
			t.Fatalf("starts %d", l.count())
		}
	})
}

func TestSlowFailuresNeverGiveUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "pet:a"})
		for range 8 {
			synctest.Wait()
			time.Sleep(20 * time.Second) // one failure per 20 s: 3 a minute
			l.last().exit <- errors.New("crash")
		}
		time.Sleep(10 * time.Second)
		synctest.Wait()
		if l.count() != 9 {
			t.Fatalf("starts %d, want 9", l.count())
		}
		s.Stop()
	})
}

func TestExecRunsRealProcess(t *testing.T) {
	p, err := Exec(Spec{Name: "true", Path: "/bin/sh", Args: []string{"-c", "exit 3"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err == nil || !strings.Contains(err.Error(), "exit status 3") {
		t.Fatalf("wait: %v", err)
	}
	if _, err := Exec(Spec{Name: "missing", Path: "/nonexistent/yui"}); err == nil {
		t.Fatal("started a missing binary")
	}
}

// TestExecChildSeesOnlyTheSpecsToken: a variable the spec sets replaces
// the core's own (so a window gets exactly its own token).
func TestExecChildSeesOnlyTheSpecsToken(t *testing.T) {
	t.Setenv("YUI_CORE_TOKEN", "stale-from-the-core")
	out := t.TempDir() + "/env"
	p, err := Exec(Spec{Name: "env", Path: "/bin/sh", Args: []string{"-c", "env > " + out},
		Env: []string{"YUI_CORE_TOKEN=the-windows-own"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "YUI_CORE_TOKEN=") {
			got = append(got, l)
		}
	}
	if len(got) != 1 || got[0] != "YUI_CORE_TOKEN=the-windows-own" {
		t.Fatalf("child env has %v", got)
	}
}

func TestStopOneStopsOnlyThatChildAndDoesNotRestartIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		if !s.Run(Spec{Name: "pet:a"}) || !s.Run(Spec{Name: "pet:b"}) {
			t.Fatal("Run refused a new name")
		}
		if s.Run(Spec{Name: "pet:a"}) {
			t.Fatal("Run started a second pet:a")
		}
		synctest.Wait()
		a := l.named["pet:a"]
		t0 := time.Now()
		s.StopOne("pet:a")
		synctest.Wait()
		time.Sleep(ExitGrace)
		synctest.Wait()
		if s.Running("pet:a") || s.Supervised("pet:a") {
			t.Fatal("pet:a still kept")
		}
		if d := time.Since(t0); d != ExitGrace {
			t.Fatalf("stopped after %v, want %v", d, ExitGrace)
		}
		if len(a.signals) != 1 || a.signals[0] != syscall.SIGTERM {
			t.Fatalf("pet:a signals %v", a.signals)
		}
		if !s.Running("pet:b") {
			t.Fatal("pet:b stopped too")
		}
		time.Sleep(time.Minute)
		if l.count() != 2 {
			t.Fatalf("starts %d, want 2 (no restart of pet:a)", l.count())
		}
		if !s.Run(Spec{Name: "pet:a"}) {
			t.Fatal("Run refused pet:a after it was stopped")
		}
		synctest.Wait()
		if !s.Running("pet:a") || l.count() != 3 {
			t.Fatal("pet:a not started again")
		}
		s.Stop()
	})
}

func TestOnceChildIsNotRestarted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "settings", Once: true})
		synctest.Wait()
		l.last().exit <- nil
		synctest.Wait()
		time.Sleep(time.Minute)
		if l.count() != 1 || s.Supervised("settings") {
			t.Fatalf("starts %d, supervised %v", l.count(), s.Supervised("settings"))
		}
		if !s.Run(Spec{Name: "settings", Once: true}) {
			t.Fatal("could not open it again")
		}
		synctest.Wait()
		if l.count() != 2 {
			t.Fatal("not started again")
		}
		s.Stop()
	})
}

func TestRunWhileStopOneEndsTheChildStartsItAfterwards(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := &fakeLauncher{}
		s := New(l.launch, nil)
		s.Run(Spec{Name: "pet:a"})
		synctest.Wait()
		s.StopOne("pet:a")
		// Switched off and on again before the old window is gone.
		if !s.Run(Spec{Name: "pet:a", Args: []string{"again"}}) {
			t.Fatal("Run refused a name StopOne is ending")
		}
		synctest.Wait()
		if l.count() != 1 {
			t.Fatal("started a second child while the first still runs")
		}
		time.Sleep(ExitGrace) // the old child gets SIGTERM and exits
		synctest.Wait()
		if l.count() != 2 || !s.Running("pet:a") {
			t.Fatalf("starts %d, running %v: the queued Run did not start", l.count(), s.Running("pet:a"))
		}
		// A StopOne after a queued Run withdraws it.
		s.StopOne("pet:a")
		s.Run(Spec{Name: "pet:a"})
		s.StopOne("pet:a")
		time.Sleep(time.Minute)
		if l.count() != 2 || s.Supervised("pet:a") {
			t.Fatalf("starts %d, supervised %v", l.count(), s.Supervised("pet:a"))
		}
		s.Stop()
	})
}
