package transcript

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The child of TestAKillMidWriteLosesNothingAcknowledged: it writes rows
// as fast as it can (a user's line, synced at once, then a batch of
// backend rows committed by Flush), and prints "ack ID" once the call
// that wrote row ID returned.
func TestKillChildWrites(t *testing.T) {
	dir := os.Getenv("YUI_TRANSCRIPT_KILL_DIR")
	if dir == "" {
		t.Skip("the child of TestAKillMidWriteLosesNothingAcknowledged")
	}
	s, err := Open(dir, "p", nil, nil)
	if err != nil {
		fmt.Println("err", err)
		os.Exit(2)
	}
	text := strings.Repeat("a long row that fills pages ", 40)
	for i := 0; ; i++ {
		u := s.Add(Entry{TurnID: fmt.Sprint("t", i), Kind: KindUser, Text: fmt.Sprint("line ", i)})
		fmt.Println("ack", u.ID)
		var last Entry
		for k := range 50 {
			last = s.Add(Entry{TurnID: fmt.Sprintf("delegation:%d-%d", i, k), Kind: KindDelegation, Text: text, State: "running"})
		}
		s.Flush()
		fmt.Println("ack", last.ID)
	}
}

// A process killed (SIGKILL) while it writes loses nothing a call had
// acknowledged: every row up to the last "ack" is there, whole, and the
// database is intact.
func TestAKillMidWriteLosesNothingAcknowledged(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a subprocess")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillChildWrites$", "-test.count=1")
	cmd.Env = append(os.Environ(), "YUI_TRANSCRIPT_KILL_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var acked uint64
	acks := 0
	for acks < 400 && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
			id, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			acked, acks = id, acks+1
		}
	}
	// Killed while it writes (it never stops writing).
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if acks < 400 {
		t.Fatalf("the child stopped after %d acks: %v", acks, sc.Err())
	}
	s := open(t, dir)
	defer s.Close()
	if err := s.DB().Check(); err != nil {
		t.Fatal(err)
	}
	rows, _, err := s.DB().Page(acked+1, int(acked)+10)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(rows)) != acked {
		t.Fatalf("%d rows up to the last acknowledged id %d, want all of them", len(rows), acked)
	}
	for i, r := range rows {
		if r.ID != uint64(i+1) || r.Text == "" {
			t.Fatalf("row %d is %+v", i+1, r)
		}
	}
	t.Logf("killed after %d acknowledged rows; all there", acked)
}
