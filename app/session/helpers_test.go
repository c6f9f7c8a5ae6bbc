package session_test

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/clientctx"
	"yui/app/cue"
	"yui/app/jpegfit"
	"yui/app/playback"
	"yui/app/session"
	"yui/app/settings"
	"yui/transport"
	"yui/transport/push"
	"yui/transport/pushserver"
)

const (
	testKey    = "test-key"
	testChatID = "yui-0badcafe"
)

// ---- log capture ----

type events struct {
	mu  sync.Mutex
	evs []session.Event
}

func (e *events) add(ev session.Event) {
	e.mu.Lock()
	e.evs = append(e.evs, ev)
	e.mu.Unlock()
}

func (e *events) all() []session.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.evs)
}

func (e *events) mark() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.evs)
}

func (e *events) since(m int) []session.Event { return e.all()[m:] }

// of returns the events of type T, in order.
func of[T session.Event](evs []session.Event) []T {
	var out []T
	for _, ev := range evs {
		if x, ok := ev.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// textOf is an event's text ("" for an event without one).
func textOf(ev session.Event) string {
	switch e := ev.(type) {
	case session.TurnSent:
		return e.Text
	case session.Plate:
		return e.Text
	case session.SpeechStart:
		return e.Text
	case session.SpeechEnd:
		return e.Text
	case session.Filler:
		return e.Text
	case session.FailureLine:
		return e.Text
	case session.ErrorLine:
		return e.Text
	case session.Reasoning:
		return e.Text
	}
	return ""
}

func texts(evs []session.Event, k session.Kind) []string {
	var out []string
	for _, ev := range evs {
		if ev.Kind() == k {
			out = append(out, textOf(ev))
		}
	}
	return out
}

// script renders the speech/cue/failure events as short lines, the order
// a viewer sees them in.
func script(evs []session.Event) []string {
	var out []string
	for _, ev := range evs {
		switch e := ev.(type) {
		case session.SpeechStart:
			out = append(out, "say "+e.Text)
		case session.Cue:
			out = append(out, "cue "+cueText(e))
		case session.FailureLine:
			out = append(out, "fail "+e.Text)
		case session.Filler:
			out = append(out, "filler "+e.Text)
		}
	}
	return out
}

func cueText(ev session.Cue) string {
	var parts []string
	if ev.Cue.EmotionID != "" {
		parts = append(parts, "e="+ev.Cue.EmotionID)
	}
	if ev.Cue.MotionID != "" {
		parts = append(parts, "m="+ev.Cue.MotionID)
	}
	if ev.Cue.EmotionText != "" {
		parts = append(parts, "t="+ev.Cue.EmotionText)
	}
	return strings.Join(parts, ",")
}

func kinds(evs []session.Event) []session.Kind {
	out := make([]session.Kind, len(evs))
	for i, ev := range evs {
		out[i] = ev.Kind()
	}
	return out
}

// ---- environment ----

type envOpts struct {
	server  pushserver.Config
	voice   playback.Voice
	tools   []push.Tool
	dir     string
	preset  *settings.Preset
	noStart bool
	key     string
	// screenshot is Options.Screenshot.
	screenshot func() (session.TurnScreenshot, bool)
	// frontmost is Options.Frontmost.
	frontmost func() *clientctx.Frontmost
	// turnLog, when set, also receives the turn log's records.
	turnLog slog.Handler
}

type env struct {
	t     *testing.T
	srv   *pushserver.Server
	s     *session.Session
	ev    *events
	log   *logRecorder
	tlog  *logRecorder
	dir   string
	chat  string
	mu    sync.Mutex
	turns []push.Turn
	stops [][]string
	plays []push.Playback
	reset int
}

// newEnv runs a session against a pushserver over the in-memory transport.
// Call it inside a synctest bubble; it waits for ready.
func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	e := &env{t: t, ev: &events{}, log: &logRecorder{}, tlog: &logRecorder{}, dir: o.dir, chat: testChatID}
	if e.dir == "" {
		e.dir = t.TempDir()
	}
	cfg := o.server
	if cfg.Key == "" {
		cfg.Key = testKey
	}
	cfg.Hooks.Turn = func(_ string, tu push.Turn) { e.mu.Lock(); e.turns = append(e.turns, tu); e.mu.Unlock() }
	cfg.Hooks.Stop = func(_ string, ids []string) { e.mu.Lock(); e.stops = append(e.stops, ids); e.mu.Unlock() }
	cfg.Hooks.Playback = func(_ string, p push.Playback) { e.mu.Lock(); e.plays = append(e.plays, p); e.mu.Unlock() }
	cfg.Hooks.Reset = func(string) { e.mu.Lock(); e.reset++; e.mu.Unlock() }
	e.srv = pushserver.New(cfg)
	p := settings.Preset{ID: "p-test", Name: "Yui", ChatAPI: "push", ChatBaseURL: "http://backend.test:8646",
		Key: testKey, ChatID: testChatID, ContextWindow: 128000}
	if o.preset != nil {
		p = *o.preset
	}
	if o.key != "" {
		p.Key = o.key
	}
	voice := o.voice
	if voice == nil {
		voice = playback.Silent{CharsPerSecond: 10}
	}
	var turnLog slog.Handler = e.tlog
	if o.turnLog != nil {
		turnLog = teeHandler{e.tlog, o.turnLog}
	}
	var declared []string
	for _, tl := range o.tools {
		declared = append(declared, tl.Schema().Name)
	}
	s, err := session.New(session.Options{
		Preset: p, ConfigDir: e.dir, Voice: voice, Declared: declared,
		Transport: pushTransport(t, p, o.tools, pushserver.InMemoryClient(e.srv), slog.New(e.log)),
		Logger:    slog.New(e.log), TurnLog: slog.New(turnLog),
		OnEvent: e.ev.add, Screenshot: o.screenshot, Frontmost: o.frontmost,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.s = s
	t.Cleanup(func() {
		s.Close()
		e.srv.Close()
	})
	if !o.noStart {
		s.Start()
		synctest.Wait()
	}
	return e
}

// pushTransport is the push wire for preset p, as app/pet builds it.
func pushTransport(t testing.TB, p settings.Preset, tools []push.Tool, hc *http.Client, lg *slog.Logger) transport.Transport {
	t.Helper()
	u, k := p.ChatBaseURL, p.Key
	tr, err := push.NewTransport(push.Config{
		Endpoint: func() string { return u }, Key: func() string { return k }, ChatID: p.ChatID,
		Vocabulary: session.WireVocabulary(cue.Default()), Tools: tools, ImageFitter: jpegfit.URLFitter{},
		Logger: lg, HTTPClient: hc,
	})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func (e *env) Turns() []push.Turn { e.mu.Lock(); defer e.mu.Unlock(); return slices.Clone(e.turns) }
func (e *env) Stops() [][]string  { e.mu.Lock(); defer e.mu.Unlock(); return slices.Clone(e.stops) }
func (e *env) Plays() []push.Playback {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.plays)
}

// send types a turn and waits for it to reach the server.
func (e *env) send(text string) string {
	e.t.Helper()
	id := e.s.SendText(text)
	synctest.Wait()
	return id
}

func (e *env) must(err error) {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
}

func seg(speech string, cues ...push.Cue) push.Segment {
	return push.Segment{Speech: speech, Cues: cues}
}

func (e *env) render(id string, segs ...push.Segment) {
	e.t.Helper()
	e.must(e.srv.SendRender(e.chat, push.Render{TurnID: id, Source: "test", Segments: segs}))
	synctest.Wait()
}

func (e *env) speech(id string, segs ...push.Segment) {
	e.t.Helper()
	e.must(e.srv.SendSpeech(e.chat, push.Speech{TurnID: id, Segments: segs}))
	synctest.Wait()
}

func (e *env) turnEnd(id string, u *push.Usage) {
	e.t.Helper()
	e.must(e.srv.SendTurnEnd(e.chat, id, u))
	synctest.Wait()
}

func (e *env) errorFrame(id, msg string) {
	e.t.Helper()
	e.must(e.srv.SendError(e.chat, id, msg))
	synctest.Wait()
}

func (e *env) toolStatus(id, state, tool string) {
	e.t.Helper()
	e.must(e.srv.SendToolStatus(e.chat, id, state, tool))
	synctest.Wait()
}

func (e *env) reasoning(id, delta string) {
	e.t.Helper()
	e.must(e.srv.SendReasoning(e.chat, id, delta))
	synctest.Wait()
}

// drain waits (in fake time) for playback to finish.
func (e *env) drain() {
	e.t.Helper()
	e.must(e.s.Drain(context.Background()))
	synctest.Wait()
}

// sleep advances fake time.
func sleep(d time.Duration) {
	time.Sleep(d)
	synctest.Wait()
}

func bubble(t *testing.T, f func(t *testing.T)) { t.Helper(); synctest.Test(t, f) }

func eq[T comparable](t *testing.T, what string, got, want []T) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", what, got, want)
	}
}

func settle() { synctest.Wait() }

func clientTrigger() clientctx.Trigger { return clientctx.FromCharacter("Mio") }

// previous reads the persisted previous-turn record of the env's preset.
func previous(t *testing.T, e *env) clientctx.Record {
	t.Helper()
	st, err := clientctx.OpenPrevious(e.dir, "p-test", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := st.Get()
	return rec
}

func containsLine(block, prefix string) bool {
	for _, l := range strings.Split(block, "\n") {
		if strings.HasPrefix(l, prefix) {
			return true
		}
	}
	return false
}

// drain0 lets playback run for a while without waiting for running turns.
func (e *env) drain0() { sleep(10 * time.Second) }

// sHTTP returns an HTTP client reaching the env's server in memory.
func (e *env) sHTTP() *http.Client { return pushserver.InMemoryClient(e.srv) }
