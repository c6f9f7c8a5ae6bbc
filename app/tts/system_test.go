package tts_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/tts"
)

// needProgram skips without the program, or fails when CI=true.
func needProgram(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (CI=true)", name)
		}
		t.Skipf("%s is not installed", name)
	}
}

// audible checks that p is speech-like: long enough and loud enough.
func audible(t *testing.T, p audio.PCM, minDur time.Duration) {
	t.Helper()
	if p.Duration() < minDur {
		t.Fatalf("%v of audio, want at least %v", p.Duration(), minDur)
	}
	if r := audio.RMS(p.Samples); r < 0.01 {
		t.Fatalf("RMS %.4f: silent", r)
	}
}

func TestESpeak(t *testing.T) {
	needProgram(t, tts.ESpeak)
	ctx := context.Background()
	e := &tts.System{Program: tts.ESpeak, Voice: "en-us"}
	p, err := e.Synthesize(ctx, tts.Request{Text: "Hello there. How are you doing today?"})
	if err != nil {
		t.Fatal(err)
	}
	audible(t, p, time.Second)
	if p.Rate != 22050 || p.Channels != 1 {
		t.Fatalf("format %+v", p.Format)
	}
	// A faster rate says the same in less time.
	fast, err := (&tts.System{Program: tts.ESpeak, Voice: "en-us", Rate: 350}).Synthesize(ctx, tts.Request{Text: "Hello there. How are you doing today?"})
	if err != nil {
		t.Fatal(err)
	}
	if fast.Duration() > p.Duration()*3/4 {
		t.Fatalf("rate 350 took %v, rate 175 %v", fast.Duration(), p.Duration())
	}
}

// Text goes on stdin, never on the command line: a sentence that looks
// like a flag is spoken, not obeyed.
func TestESpeakTextIsNotAnArgument(t *testing.T) {
	needProgram(t, tts.ESpeak)
	p, err := (&tts.System{}).Synthesize(context.Background(), tts.Request{Text: "--version -w /tmp/owned.wav"})
	if err != nil {
		t.Fatal(err)
	}
	audible(t, p, 500*time.Millisecond)
	if _, err := os.Stat("/tmp/owned.wav"); err == nil {
		t.Fatal("the text was read as options")
	}
}

func TestFlite(t *testing.T) {
	needProgram(t, tts.Flite)
	p, err := (&tts.System{Program: tts.Flite, Voice: "slt"}).Synthesize(context.Background(), tts.Request{Text: "Hello from flite."})
	if err != nil {
		t.Fatal(err)
	}
	audible(t, p, 500*time.Millisecond)
}

func TestSystemFailures(t *testing.T) {
	ctx := context.Background()
	_, err := (&tts.System{Program: tts.ESpeak, Path: "/nonexistent/espeak-ng"}).Synthesize(ctx, tts.Request{Text: "hi"})
	if err == nil || !strings.HasPrefix(tts.ShortText(err), "voice:") {
		t.Fatalf("missing binary: %v", err)
	}
	// A synthesiser that fails says why (its stderr), bounded.
	dir := t.TempDir()
	bad := filepath.Join(dir, "espeak-ng")
	os.WriteFile(bad, []byte("#!/bin/sh\ncat >/dev/null\necho 'no voice data' >&2\nexit 3\n"), 0o755)
	_, err = (&tts.System{Program: tts.ESpeak, Path: bad}).Synthesize(ctx, tts.Request{Text: "hi"})
	if err == nil || !strings.Contains(err.Error(), "no voice data") || tts.ShortText(err) != "voice: espeak-ng failed" {
		t.Fatalf("failing program: %v (%q)", err, tts.ShortText(err))
	}
	// Output that is not a WAV.
	junk := filepath.Join(dir, "junk")
	os.WriteFile(junk, []byte("#!/bin/sh\ncat >/dev/null\necho garbage\n"), 0o755)
	if _, err = (&tts.System{Program: tts.ESpeak, Path: junk}).Synthesize(ctx, tts.Request{Text: "hi"}); err == nil {
		t.Fatal("garbage accepted as audio")
	}
	// More audio than the bound: refused, and the program is stopped.
	big := filepath.Join(dir, "big")
	os.WriteFile(big, []byte("#!/bin/sh\ncat >/dev/null\nprintf 'RIFF\\377\\377\\377\\377WAVEfmt \\020\\000\\000\\000\\001\\000\\001\\000\\100\\037\\000\\000\\200\\076\\000\\000\\002\\000\\020\\000data\\377\\377\\377\\377'\nexec cat /dev/zero\n"), 0o755)
	_, err = (&tts.System{Program: tts.ESpeak, Path: big, MaxBytes: 1 << 16}).Synthesize(ctx, tts.Request{Text: "hi"})
	if err == nil || !strings.Contains(err.Error(), "too large") {
		t.Fatalf("endless output: %v", err)
	}
}

func TestSystemCancel(t *testing.T) {
	dir := t.TempDir()
	slow := filepath.Join(dir, "slow")
	os.WriteFile(slow, []byte("#!/bin/sh\nexec sleep 60\n"), 0o755)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := (&tts.System{Program: tts.ESpeak, Path: slow}).Synthesize(ctx, tts.Request{Text: "hi"})
		done <- err
	}()
	cancel()
	if err := <-done; err != context.Canceled {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestVoices(t *testing.T) {
	needProgram(t, tts.ESpeak)
	vs, err := tts.Voices(context.Background(), tts.ESpeak)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, v := range vs {
		if v.ID == "en-us" {
			found = true
		}
	}
	if !found || len(vs) < 10 {
		t.Fatalf("%d voices, en-us listed: %v", len(vs), found)
	}
}
