package listentest

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"yui/app/audio"
)

// ModelDir is where pocketsphinx-en-us installs its model.
const ModelDir = "/usr/share/pocketsphinx/model/en-us"

// recognizer reads requests (a 4-byte little-endian length, then that
// many bytes of 16 kHz mono s16le) and writes one line per request: the
// hypothesis, or "" for none.
const recognizer = `
import os, sys, struct
from pocketsphinx import Decoder
model, gram = sys.argv[1], sys.argv[2]
c = Decoder.default_config()
c.set_string('-hmm', os.path.join(model, 'en-us'))
c.set_string('-dict', os.path.join(model, 'cmudict-en-us.dict'))
c.set_string('-jsgf', gram)
c.set_string('-logfn', os.devnull)
d = Decoder(c)
inp, out = sys.stdin.buffer, sys.stdout
out.write("ready\n"); out.flush()
while True:
    h = inp.read(4)
    if len(h) < 4:
        break
    n = struct.unpack('<I', h)[0]
    data = inp.read(n)
    d.start_utt()
    d.process_raw(data, False, True)
    d.end_utt()
    hyp = d.hyp()
    out.write((hyp.hypstr if hyp else "") + "\n"); out.flush()
`

// Request is what one transcription request carried.
type Request struct {
	Model, Language, ResponseFormat string
	Auth                            string // the Authorization header
	Audio                           time.Duration
	Rate, Channels                  int
	Text                            string // the answer
	Took                            time.Duration
}

// Server is a running transcription server.
type Server struct {
	// URL is the API base ("http://127.0.0.1:port/v1").
	URL string
	// Status, when not 0, is answered instead of a transcript (401 tests).
	Status int

	srv  *httptest.Server
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	dec  sync.Mutex // one recognition at a time
	mu   sync.Mutex
	reqs []Request
}

// Start runs a server recognising phrases (lower-case words of the CMU
// dictionary) and stops it at cleanup. Without pocketsphinx the test is
// skipped, or fails when $CI is "true".
func Start(t testing.TB, phrases []string) *Server {
	t.Helper()
	s, err := Run(t.TempDir(), phrases)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("listentest: %v (CI=true: the listening tests must run)", err)
		}
		t.Skipf("listentest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// python finds a Python 3 that has the pocketsphinx module.
func python() (string, error) {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import pocketsphinx").Run() == nil {
			return p, nil
		}
	}
	return "", errors.New("no python3 with pocketsphinx (apt-get install python3-pocketsphinx pocketsphinx-en-us)")
}

// Run starts a server outside a test (benchmarks); dir holds the grammar.
func Run(dir string, phrases []string) (*Server, error) {
	py, err := python()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(ModelDir, "en-us", "mdef")); err != nil {
		return nil, fmt.Errorf("no acoustic model in %s: %w", ModelDir, err)
	}
	alts := make([]string, len(phrases))
	for i, p := range phrases {
		alts[i] = strings.ToLower(p)
	}
	gram := "#JSGF V1.0;\ngrammar yui;\npublic <utterance> = " + strings.Join(alts, " | ") + ";\n"
	gp := filepath.Join(dir, "phrases.gram")
	if err := os.WriteFile(gp, []byte(gram), 0o600); err != nil {
		return nil, err
	}
	s := &Server{}
	s.cmd = exec.Command(py, "-c", recognizer, ModelDir, gp)
	s.in, _ = s.cmd.StdinPipe()
	stdout, _ := s.cmd.StdoutPipe()
	var stderr strings.Builder
	s.cmd.Stderr = &stderr
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start recogniser: %w", err)
	}
	s.out = bufio.NewReader(stdout)
	if line, err := s.out.ReadString('\n'); err != nil || line != "ready\n" {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		return nil, fmt.Errorf("recogniser did not start: %v %q %s", err, line, stderr.String())
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/audio/transcriptions", s.transcribe)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL + "/v1"
	return s, nil
}

// Close stops the server and the recogniser.
func (s *Server) Close() {
	s.srv.Close()
	s.in.Close()
	s.cmd.Wait()
}

// Requests returns what each request carried, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

func (s *Server) transcribe(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	r.Body = http.MaxBytesReader(w, r.Body, 8<<20)
	if err := r.ParseMultipartForm(8 << 20); err != nil {
		http.Error(w, `{"error":{"message":"bad form"}}`, http.StatusBadRequest)
		return
	}
	req := Request{Model: r.FormValue("model"), Language: r.FormValue("language"),
		ResponseFormat: r.FormValue("response_format"), Auth: r.Header.Get("Authorization")}
	if s.Status != 0 {
		s.record(req)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(s.Status)
		io.WriteString(w, `{"error":{"message":"refused by the test server"}}`)
		return
	}
	f, _, err := r.FormFile("file")
	if err != nil {
		http.Error(w, `{"error":{"message":"no file"}}`, http.StatusBadRequest)
		return
	}
	pcm, err := audio.DecodeWAV(f, 8<<20)
	if err != nil {
		http.Error(w, `{"error":{"message":"not a WAV file"}}`, http.StatusBadRequest)
		return
	}
	req.Audio, req.Rate, req.Channels = pcm.Duration(), pcm.Rate, pcm.Channels
	text, err := s.recognise(to16kMono(pcm))
	if err != nil {
		http.Error(w, `{"error":{"message":"recogniser failed"}}`, http.StatusInternalServerError)
		return
	}
	if text == "" {
		text = "[BLANK_AUDIO]"
	}
	req.Text, req.Took = text, time.Since(start)
	s.record(req)
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]string{"text": text})
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

func (s *Server) recognise(samples []int16) (string, error) {
	s.dec.Lock()
	defer s.dec.Unlock()
	b := make([]byte, 4+2*len(samples))
	binary.LittleEndian.PutUint32(b, uint32(2*len(samples)))
	for i, v := range samples {
		binary.LittleEndian.PutUint16(b[4+2*i:], uint16(v))
	}
	if _, err := s.in.Write(b); err != nil {
		return "", err
	}
	line, err := s.out.ReadString('\n')
	return strings.TrimSpace(line), err
}

// to16kMono mixes down and resamples (linear) to 16 kHz.
func to16kMono(p audio.PCM) []int16 {
	mono := p.Samples
	if p.Channels == 2 {
		mono = make([]int16, len(p.Samples)/2)
		for i := range mono {
			mono[i] = int16((int(p.Samples[2*i]) + int(p.Samples[2*i+1])) / 2)
		}
	}
	if p.Rate == 16000 {
		return mono
	}
	n := int(int64(len(mono)) * 16000 / int64(p.Rate))
	out := make([]int16, n)
	for i := range out {
		x := float64(i) * float64(p.Rate) / 16000
		j := int(x)
		if j+1 >= len(mono) {
			out[i] = mono[len(mono)-1]
			continue
		}
		f := x - float64(j)
		out[i] = int16(float64(mono[j])*(1-f) + float64(mono[j+1])*f)
	}
	return out
}
