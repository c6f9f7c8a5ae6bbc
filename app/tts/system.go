package tts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"yui/app/audio"
)

// Programs the System engine can run.
const (
	ESpeak = "espeak-ng"
	Flite  = "flite"
)

// Rate bounds in words per minute (espeak-ng's own limits).
const (
	DefaultRate = 175
	MinRate     = 80
	MaxRate     = 450
)

// System is a local synthesiser run once per sentence through os/exec,
// with the text on stdin (never on the command line): espeak-ng writes
// a WAV with placeholder sizes to stdout; flite writes one to a private
// temporary file.
type System struct {
	// Program is ESpeak or Flite; "" is ESpeak.
	Program string
	// Voice is the program's voice name (espeak-ng: "en-us", "en-us+f3";
	// flite: "slt", "kal16"); "" is its default.
	Voice string
	// Rate is the speaking rate in words per minute; 0 is DefaultRate.
	Rate int
	// MaxBytes bounds the audio of one sentence; 0 is DefaultMaxBytes.
	MaxBytes int64
	// Path, when set, is the program's binary instead of looking it up in
	// $PATH (tests).
	Path string
}

// Available reports whether program can be found in $PATH.
func Available(program string) bool {
	_, err := exec.LookPath(program)
	return err == nil
}

func (s *System) program() string {
	if s.Program == "" {
		return ESpeak
	}
	return s.Program
}

// Synthesize implements Engine.
func (s *System) Synthesize(ctx context.Context, r Request) (audio.PCM, error) {
	prog := s.program()
	bin := s.Path
	if bin == "" {
		p, err := exec.LookPath(prog)
		if err != nil {
			return audio.PCM{}, &Error{Short: "voice: " + prog + " is not installed", Err: err}
		}
		bin = p
	}
	limit := s.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	rate := s.Rate
	if rate == 0 {
		rate = DefaultRate
	}
	rate = min(max(rate, MinRate), MaxRate)
	switch prog {
	case ESpeak:
		args := []string{"--stdin", "--stdout", "-b", "1", "-s", strconv.Itoa(rate)}
		if s.Voice != "" {
			args = append(args, "-v", s.Voice)
		}
		return s.run(ctx, bin, args, r.Text, limit, "")
	case Flite:
		dir, err := os.MkdirTemp("", "yui-flite-")
		if err != nil {
			return audio.PCM{}, &Error{Short: "voice: flite failed", Err: err}
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "out.wav")
		// flite's duration_stretch is the inverse of a rate: 175 wpm is 1.
		args := []string{"--setf", "duration_stretch=" + strconv.FormatFloat(float64(DefaultRate)/float64(rate), 'f', 3, 64)}
		if s.Voice != "" {
			args = append(args, "-voice", s.Voice)
		}
		// flite cannot write to a pipe (it seeks back to fix the header),
		// so it writes to a file of its own.
		args = append(args, "-f", "/dev/stdin", "-o", out)
		return s.run(ctx, bin, args, r.Text, limit, out)
	default:
		return audio.PCM{}, &Error{Short: "voice: unknown program", Err: fmt.Errorf("tts: unknown program %q", prog)}
	}
}

// run starts bin with args, writes text to its stdin and decodes the WAV
// it writes to stdout (or to file, when set).
func (s *System) run(ctx context.Context, bin string, args []string, text string, limit int64, file string) (audio.PCM, error) {
	prog := s.program()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin = strings.NewReader(text + "\n")
	stderr := &limitedBuffer{n: 512}
	cmd.Stderr = stderr
	var pcm audio.PCM
	var decodeErr error
	if file == "" {
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return audio.PCM{}, &Error{Short: "voice: " + prog + " failed", Err: err}
		}
		if err := cmd.Start(); err != nil {
			if ctx.Err() != nil {
				return audio.PCM{}, ctx.Err()
			}
			return audio.PCM{}, &Error{Short: "voice: " + prog + " failed", Err: fmt.Errorf("tts: start %s: %w", prog, err)}
		}
		pcm, decodeErr = audio.DecodeWAV(stdout, limit)
		if decodeErr != nil {
			cmd.Process.Kill() // too large or unreadable: no point letting it run
		}
		err = cmd.Wait()
		if ctx.Err() != nil {
			return audio.PCM{}, ctx.Err()
		}
		// A program that failed says why on stderr, unless it was stopped
		// for writing too much.
		if err != nil && !errors.Is(decodeErr, audio.ErrTooLarge) {
			return audio.PCM{}, &Error{Short: "voice: " + prog + " failed", Err: fmt.Errorf("tts: %s: %w: %s", prog, err, stderr)}
		}
	} else {
		cmd.Stdout = stderr
		if err := cmd.Run(); err != nil {
			if ctx.Err() != nil {
				return audio.PCM{}, ctx.Err()
			}
			return audio.PCM{}, &Error{Short: "voice: " + prog + " failed", Err: fmt.Errorf("tts: %s: %w: %s", prog, err, stderr)}
		}
		f, err := os.Open(file)
		if err != nil {
			return audio.PCM{}, &Error{Short: "voice: " + prog + " failed", Err: fmt.Errorf("tts: %s wrote no audio: %w: %s", prog, err, stderr)}
		}
		defer f.Close()
		pcm, decodeErr = audio.DecodeWAV(f, limit)
	}
	if decodeErr != nil {
		return audio.PCM{}, &Error{Short: "voice: " + prog + " failed", Err: fmt.Errorf("tts: %s output: %w", prog, decodeErr)}
	}
	return pcm, nil
}

// Voice is one voice a program offers.
type Voice struct {
	ID    string // what System.Voice takes
	Label string // for people
}

// Voices lists program's voices (espeak-ng --voices, flite -lv). It runs
// the program; an error means it is not installed or said nothing usable.
func Voices(ctx context.Context, program string) ([]Voice, error) {
	bin, err := exec.LookPath(program)
	if err != nil {
		return nil, err
	}
	var cmd *exec.Cmd
	switch program {
	case ESpeak:
		cmd = exec.CommandContext(ctx, bin, "--voices")
	case Flite:
		cmd = exec.CommandContext(ctx, bin, "-lv")
	default:
		return nil, fmt.Errorf("tts: unknown program %q", program)
	}
	out := &limitedBuffer{n: 1 << 20}
	cmd.Stdout = out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("tts: %s voices: %w", program, err)
	}
	var vs []Voice
	if program == Flite {
		_, list, _ := strings.Cut(out.String(), ":")
		for _, f := range strings.Fields(list) {
			vs = append(vs, Voice{ID: f, Label: f})
		}
	} else {
		seen := map[string]bool{}
		for i, line := range strings.Split(out.String(), "\n") {
			f := strings.Fields(line)
			if i == 0 || len(f) < 4 {
				continue // the header, or a blank line
			}
			id, name := f[1], strings.ReplaceAll(f[3], "_", " ")
			if seen[id] || strings.HasPrefix(f[4%len(f)], "mb/") {
				continue // mbrola voices need voice files espeak-ng rarely has
			}
			seen[id] = true
			vs = append(vs, Voice{ID: id, Label: name + " (" + id + ")"})
		}
	}
	if len(vs) == 0 {
		return nil, errors.New("tts: " + program + " listed no voices")
	}
	return vs, nil
}
