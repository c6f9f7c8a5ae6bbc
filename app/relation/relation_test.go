package relation

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"yui/transport"
)

type cast map[string]string // name → id

func (c cast) Character(name string) (string, bool) {
	for n, id := range c {
		if strings.EqualFold(n, name) {
			return id, true
		}
	}
	return "", false
}

func (c cast) Name(id string) string {
	for n, i := range c {
		if i == id {
			return n
		}
	}
	return id
}

var theCast = cast{"Yui": "p-00000001", "Mika": "p-00000002"}

func open(t *testing.T, path string) *Store {
	t.Helper()
	s, err := Open(Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func call(t *testing.T, tool *Tool, args string) string {
	t.Helper()
	raw := json.RawMessage(args)
	if err := tool.Validate(raw); err != nil {
		return "error: " + err.Error()
	}
	res, _, err := tool.Run(context.Background(), transport.ToolCall{ID: "c", Name: Name, Arguments: raw})
	if err != nil {
		return "error: " + err.Error()
	}
	return res
}

func TestBands(t *testing.T) {
	for v, want := range map[int]string{-100: Hostile, -60: Hostile, -59: Cold, -20: Cold, -19: Neutral, 0: Neutral, 19: Neutral, 20: Friendly, 42: Friendly, 59: Friendly, 60: Close, 100: Close} {
		if got := Band(v); got != want {
			t.Errorf("Band(%d) = %s, want %s", v, got, want)
		}
	}
}

func TestRateAnswersClampsAndPersistsAcrossARestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), FileName)
		s := open(t, path)
		tool := &Tool{Store: s, Self: "p-00000001", Cast: theCast}
		if got := call(t, tool, `{"target":"user","delta":5,"reason":"made me tea"}`); got != "ok: user 5 (neutral)" {
			t.Fatalf("first rate: %q", got)
		}
		for range 7 {
			call(t, tool, `{"target":"User","delta":5}`)
		}
		if got := call(t, tool, `{"target":"user","delta":2.0,"reason":"  kind \n again "}`); got != "ok: user 42 (friendly)" {
			t.Fatalf("ninth rate: %q", got)
		}
		for range 30 {
			call(t, tool, `{"target":"mika","delta":-5}`)
		}
		if got := call(t, tool, `{"target":"Mika","delta":-5}`); got != "ok: Mika -100 (hostile)" {
			t.Fatalf("clamped at -100: %q", got)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}

		s2 := open(t, path)
		defer s2.Close()
		got := s2.Standings("p-00000001")
		if len(got) != 2 || got[0].Target != User || got[0].Value != 42 || got[0].Reason != "kind again" ||
			got[1].Target != "p-00000002" || got[1].Value != -100 {
			t.Fatalf("after a restart: %+v", got)
		}
		for range 20 {
			s2.Rate("p-00000002", User, 5, "")
		}
		if st := s2.Get("p-00000002", User); st.Value != 100 || st.Band() != Close {
			t.Fatalf("clamped at 100: %+v", st)
		}
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("file: %v %v", fi, err)
		}
	})
}

func TestBadCallsAnswerTheSpecsErrors(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), FileName))
	defer s.Close()
	tool := &Tool{Store: s, Self: "p-00000001", Cast: theCast}
	for args, want := range map[string]string{
		`{"delta":1}`:                               "error: missing field target",
		`{"target":"user"}`:                         "error: missing field delta",
		`{"target":"nobody","delta":1}`:             "error: invalid field target",
		`{"target":"yui","delta":1}`:                "error: invalid field target", // herself
		`{"target":3,"delta":1}`:                    "error: invalid field target",
		`{"target":"user","delta":6}`:               "error: invalid field delta",
		`{"target":"user","delta":-6}`:              "error: invalid field delta",
		`{"target":"user","delta":1.5}`:             "error: invalid field delta",
		`{"target":"user","delta":"1"}`:             "error: invalid field delta",
		`{"target":"user","delta":1e30}`:            "error: invalid field delta",
		`{"target":"user","delta":1,"reason":5}`:    "error: invalid field reason",
		`{"target":"user","delta":1,"mood":"good"}`: "error: invalid field mood",
	} {
		if got := call(t, tool, args); got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
	if got := s.Standings("p-00000001"); len(got) != 0 {
		t.Fatalf("a refused call changed a standing: %+v", got)
	}
	long := strings.Repeat("é", MaxReason+50)
	s.Rate("p-00000001", User, 1, long)
	if r := s.Get("p-00000001", User).Reason; len([]rune(r)) != MaxReason {
		t.Fatalf("reason kept %d characters", len([]rune(r)))
	}
}

// A save that hangs on the disk never holds a call past its 2 s wait: the
// standing is answered from memory, and the file follows once the disk
// answers.
func TestRateNeverWaitsOnTheDisk(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := filepath.Join(t.TempDir(), FileName)
		s := open(t, path)
		release := make(chan struct{})
		real := s.save
		s.save = func(f file) error { <-release; return real(f) }
		tool := &Tool{Store: s, Self: "p-00000001", Cast: theCast}
		start := time.Now()
		for i := range 10 {
			if got := call(t, tool, `{"target":"user","delta":3}`); !strings.HasPrefix(got, "ok: user ") {
				t.Fatalf("call %d: %q", i, got)
			}
		}
		if time.Since(start) != 0 {
			t.Fatalf("ten calls took %v of fake time", time.Since(start))
		}
		synctest.Wait()
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the file was written past a hanging save: %v", err)
		}
		close(release)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s2 := open(t, path)
		defer s2.Close()
		if v := s2.Get("p-00000001", User).Value; v != 30 {
			t.Fatalf("saved %d, want 30", v)
		}
	})
}

func TestResetForgetAndACorruptFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	var changed []string
	s, err := Open(Config{Path: path, OnChange: func(p string) { changed = append(changed, p) }})
	if err != nil {
		t.Fatal(err)
	}
	s.Rate("p-00000001", User, 4, "")
	s.Rate("p-00000001", "p-00000002", 4, "")
	s.Rate("p-00000002", "p-00000001", -4, "")
	if !s.Reset("p-00000001", User) || s.Reset("p-00000001", User) {
		t.Fatal("Reset reports a standing kept once")
	}
	s.Forget("p-00000002")
	if got := s.Standings("p-00000001"); len(got) != 0 {
		t.Fatalf("after forgetting Mika: %+v", got)
	}
	if got := s.Standings("p-00000002"); len(got) != 0 {
		t.Fatalf("Mika's own: %+v", got)
	}
	if len(changed) != 6 {
		t.Fatalf("OnChange heard %v", changed)
	}
	s.Close()

	if err := os.WriteFile(path, []byte(`{"version":1,"standings":{"p-00000001":{"user":{"target":"user","value":900}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s2, err := Open(Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if got := s2.Standings("p-00000001"); len(got) != 0 {
		t.Fatalf("an out-of-range file read as %+v", got)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, FileName+"*"))
	if len(kept) != 1 || kept[0] == path {
		t.Fatalf("the corrupt file was not kept aside: %v", kept)
	}
}
