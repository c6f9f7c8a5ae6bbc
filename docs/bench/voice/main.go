// Command voice measures the voice in the real binary (docs/bench/voice.sh):
// the core's CPU while a character speaks vs while it is idle, and the pet
// window's CPU while she speaks with the mouth moved by the voice's levels
// (a private PulseAudio server plays her) vs with the fixed flap (the same
// reply with --no-sound), in one run. The backend is a push server in this
// process that answers every turn with the same long reply. Needs $DISPLAY
// (Xvfb), pulseaudio and espeak-ng.
//
// Usage: go run ./docs/bench/voice -bin build/bin/yui [-secs 20] [-settle 15]
//
// With -looks it compares looks instead (docs/bench/vrm.sh): the pet
// window tree idle and while speaking (with sound, lip-sync), the SVG look
// against the VRM look (the generated test model, breathing off and low),
// each state measured -reps times in rotating order, as ratios to svg:
//
//	go run ./docs/bench/voice -looks svg,vrm,vrm-breathing -reps 2
//	go run ./docs/bench/voice -looks svg,vrm@before,vrm -before /tmp/old -reps 2
//
// With -cues it compares what the story's sentences carry instead (issue
// 24): one cue per sentence, an emotion, a motion or both, against none;
// the pet window tree's CPU while she speaks (sound on), per mode:
//
//	go run ./docs/bench/voice -cues none,motion,emotion,emotion+motion -reps 2
//
// With -ab it compares builds instead: each named state is a binary run
// with sound (lip-sync) or without (the flap), measured -reps times in
// rotating order, and the pet window's ticks are printed per state, e.g.
//
//	go run ./docs/bench/voice -reps 2 -ab new=/tmp/new:sound,old=/tmp/old:sound
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
	"yui/app/settings"
	"yui/transport/push"
	"yui/transport/pushserver"
)

const key = "bench-key"

// story is one long reply: about a minute of speech at 175 words a minute
// (or at the silent pace of 15 characters a second).
var story = strings.Repeat("Once upon a time a small robot walked along the river to find a friend. "+
	"It asked the fish, the frogs and the tall old trees, and every one of them had a story to tell. ", 8)

func main() {
	bin := flag.String("bin", "build/bin/yui", "the yui binary")
	secs := flag.Int("secs", 20, "seconds measured in each state")
	settle := flag.Int("settle", 15, "seconds the windows settle before measuring")
	ab := flag.String("ab", "", "compare states instead: name=binary:sound|nosound,...")
	reps := flag.Int("reps", 2, "with -ab or -looks: rounds, each measuring every state once")
	looks := flag.String("looks", "", "compare looks instead: svg,vrm,vrm-breathing (a look@before runs the -before binary)")
	before := flag.String("before", "", "with -looks: the binary of the looks named look@before (a change's before, measured in the same run)")
	cues := flag.String("cues", "", "compare cue modes instead: none,emotion,motion,emotion+motion")
	flag.Parse()
	var err error
	hz, _ := strconv.Atoi(strings.TrimSpace(sh("getconf", "CLK_TCK")))
	if hz == 0 {
		hz = 100
	}
	if *cues != "" {
		err = compareCues(*bin, strings.Split(*cues, ","), *reps, time.Duration(*secs)*time.Second, time.Duration(*settle)*time.Second, hz)
	} else if *looks != "" {
		err = compareLooks(*bin, *before, strings.Split(*looks, ","), *reps, time.Duration(*secs)*time.Second, time.Duration(*settle)*time.Second)
	} else if *ab != "" {
		err = compare(*ab, *reps, time.Duration(*secs)*time.Second, time.Duration(*settle)*time.Second)
	} else {
		err = run(*bin, time.Duration(*secs)*time.Second, time.Duration(*settle)*time.Second)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "voice bench:", err)
		os.Exit(1)
	}
}

type figures struct {
	windowIdle       int    // ticks of the window tree while idle
	windowSpeaking   int    // ticks of the window tree while speaking
	coreIdle         int    // ticks of the core while idle
	coreSpeaking     int    // ... while speaking
	childrenSpeaking int    // ticks of the core's reaped children (espeak-ng) while speaking
	busiest          string // the window tree's busiest threads while speaking
}

// rig is what every measured state shares: a private PulseAudio server
// whose speaker is recorded, and the push backend.
type rig struct {
	pulseAddr string
	backend   string
	close     func()
	// cues is what the next reply's sentences carry (a cues* constant).
	cues atomic.Value
}

func startRig() (*rig, error) {
	pa, err := pulsetest.Run()
	if err != nil {
		return nil, fmt.Errorf("pulseaudio: %w", err)
	}
	// The speaker's monitor is recorded throughout, so the null sink plays
	// as a sound card does: unrecorded, it renders in 2 s blocks and the
	// first sound after each pause waits up to 2 s (docs/voice.md), which
	// would leave her silent for part of the time measured.
	rec, err := pulse.Record(context.Background(), pa.Addr, pulsetest.Speaker+".monitor", 16000)
	if err != nil {
		pa.Close()
		return nil, fmt.Errorf("record the speaker: %w", err)
	}
	var srv *pushserver.Server
	r := &rig{}
	srv = pushserver.New(pushserver.Config{Key: key, Source: "bench", Hooks: pushserver.Hooks{
		Turn: func(chatID string, t push.Turn) {
			segs := storySegments(r.cues.Load())
			// Not from inside the hook: the server is reading that frame.
			go func() {
				srv.SendRender(chatID, push.Render{TurnID: t.TurnID, Source: "bench", Segments: segs})
				srv.SendTurnEnd(chatID, t.TurnID, nil)
			}()
		},
	}})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		rec.Close()
		pa.Close()
		return nil, err
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln)
	r.cues.Store(cuesNone)
	r.pulseAddr, r.backend = pa.Addr, "http://"+ln.Addr().String()
	r.close = func() {
		hs.Close()
		rec.Close()
		pa.Close()
	}
	return r, nil
}

func run(bin string, secs, settle time.Duration) error {
	r, err := startRig()
	if err != nil {
		return err
	}
	defer r.close()
	base := r.backend
	hz, _ := strconv.Atoi(strings.TrimSpace(sh("getconf", "CLK_TCK")))
	if hz == 0 {
		hz = 100
	}
	levels, err := measure(bin, base, r.pulseAddr, false, secs, settle)
	if err != nil {
		return fmt.Errorf("levels: %w", err)
	}
	flap, err := measure(bin, base, r.pulseAddr, true, secs, settle)
	if err != nil {
		return fmt.Errorf("flap: %w", err)
	}
	pct := func(t int) string { return fmt.Sprintf("%.2f %%", 100*float64(t)/float64(hz)/secs.Seconds()) }
	fmt.Printf("voice bench, %s, %v per state, CLK_TCK %d\n", time.Now().UTC().Format(time.RFC3339), secs, hz)
	fmt.Printf("core while speaking vs idle (sound on): %d vs %d ticks (%s vs %s of one core; +%s)\n",
		levels.coreSpeaking, levels.coreIdle, pct(levels.coreSpeaking), pct(levels.coreIdle), pct(levels.coreSpeaking-levels.coreIdle))
	fmt.Printf("  espeak-ng processes it ran meanwhile: %d ticks (%s)\n", levels.childrenSpeaking, pct(levels.childrenSpeaking))
	fmt.Printf("pet window tree while speaking: level-driven lip-sync %d ticks (%s), fixed flap %d ticks (%s): lip-sync/flap = %.2fx\n",
		levels.windowSpeaking, pct(levels.windowSpeaking), flap.windowSpeaking, pct(flap.windowSpeaking),
		float64(levels.windowSpeaking)/float64(max(1, flap.windowSpeaking)))
	return nil
}

// compare measures the pet window while speaking in each state of spec
// (name=binary:sound|nosound, comma-separated), reps rounds, rotating the
// order each round so no state always comes first.
func compare(spec string, reps int, secs, settle time.Duration) error {
	type state struct {
		name, bin string
		noSound   bool
		ticks     []int
	}
	var states []*state
	for _, s := range strings.Split(spec, ",") {
		name, rest, ok1 := strings.Cut(s, "=")
		bin, mode, ok2 := strings.Cut(rest, ":")
		if !ok1 || !ok2 || (mode != "sound" && mode != "nosound") {
			return fmt.Errorf("-ab: %q is not name=binary:sound|nosound", s)
		}
		states = append(states, &state{name: name, bin: bin, noSound: mode == "nosound"})
	}
	r, err := startRig()
	if err != nil {
		return err
	}
	defer r.close()
	fmt.Printf("voice bench A/B, %s, %v per state, %d rounds\n", time.Now().UTC().Format(time.RFC3339), secs, reps)
	for i := range reps {
		for j := range states {
			st := states[(i+j)%len(states)]
			f, err := measure(st.bin, r.backend, r.pulseAddr, st.noSound, secs, settle)
			if err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
			st.ticks = append(st.ticks, f.windowSpeaking)
			fmt.Printf("round %d: %s: pet window tree %d ticks while speaking\n", i+1, st.name, f.windowSpeaking)
		}
	}
	sum := func(t []int) (n int) {
		for _, v := range t {
			n += v
		}
		return n
	}
	base := sum(states[0].ticks)
	for _, st := range states {
		fmt.Printf("%s: %v ticks, %.2fx %s\n", st.name, st.ticks, float64(sum(st.ticks))/float64(max(1, base)), states[0].name)
	}
	return nil
}

// measure runs the binary once: idle, then one long reply.
func measure(bin, backend, pulseAddr string, noSound bool, secs, settle time.Duration) (figures, error) {
	return measureLook(bin, backend, pulseAddr, noSound, "", secs, settle)
}

// measureLook is measure with the character wearing look ("" or "svg":
// the default; "vrm", "vrm-breathing": the generated VRM test model).
func measureLook(bin, backend, pulseAddr string, noSound bool, look string, secs, settle time.Duration) (figures, error) {
	var f figures
	dir, err := os.MkdirTemp("", "yui-voice-bench-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(dir)
	st, _, err := settings.Open(filepath.Join(dir, "config"))
	if err != nil {
		return f, err
	}
	err = st.Update(func(s *settings.Settings) {
		s.Presets[0].ChatBaseURL = backend
		s.Presets[0].Key = key
		s.Presets[0].Voice = settings.Voice{Engine: "system", SystemVoice: "en-us"}
		if strings.HasPrefix(look, "vrm") {
			s.Presets[0].Look = "benchvrm"
		}
	})
	if err != nil {
		return f, err
	}
	if strings.HasPrefix(look, "vrm") {
		if err := vrmFolder(filepath.Join(dir, "config"), look == "vrm-breathing"); err != nil {
			return f, err
		}
	}
	preset := st.Get().Presets[0].ID
	args := []string{"--config-dir", filepath.Join(dir, "config"), "--log-dir", filepath.Join(dir, "logs"), "--trace-view", "--demo=false"}
	if noSound {
		args = append(args, "--no-sound")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "PULSE_SERVER="+pulseAddr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return f, err
	}
	if err := cmd.Start(); err != nil {
		return f, err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	}()
	sc := bufio.NewScanner(out)
	var ready map[string]any
	for sc.Scan() {
		var m map[string]any
		if json.Unmarshal(sc.Bytes(), &m) == nil && m["event"] == "core_ready" {
			ready = m
			break
		}
	}
	if ready == nil {
		return f, fmt.Errorf("no core_ready")
	}
	go func() {
		for sc.Scan() {
		}
	}()
	core := cmd.Process.Pid
	time.Sleep(settle) // the window starts and settles (no event to wait on from outside)
	win := windowTree(core)
	if len(win) == 0 {
		return f, fmt.Errorf("no pet window process")
	}
	// Idle.
	c0 := ticks(core)
	wi := sumTicks(win)
	time.Sleep(secs)
	f.coreIdle = ticks(core) - c0
	f.windowIdle = sumTicks(win) - wi
	// Speaking: one long reply; measuring starts at the first sentence.
	toks, _ := ready["page_tokens"].(map[string]any) // each window role has its own token
	tok, _ := toks[preset].(string)
	if tok == "" {
		return f, fmt.Errorf("core_ready names no page token for %s", preset)
	}
	q := url.Values{"token": {tok}, "role": {"pet"}, "preset": {preset}}
	ctx := context.Background()
	page, _, err := websocket.Dial(ctx, ready["view_url"].(string)+"?"+q.Encode(), nil)
	if err != nil {
		return f, err
	}
	defer page.CloseNow()
	speaking := make(chan struct{}, 1)
	go func() {
		for {
			_, b, err := page.Read(ctx)
			if err != nil {
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) == nil && m["type"] == "bubble" && m["speaking"] == true {
				select {
				case speaking <- struct{}{}:
				default:
				}
			}
		}
	}()
	page.Write(ctx, websocket.MessageText, []byte(`{"type":"send_text","text":"Tell me a long story."}`))
	select {
	case <-speaking:
	case <-time.After(30 * time.Second):
		return f, fmt.Errorf("she never spoke")
	}
	w0 := sumTicks(win)
	th0 := threadTicks(win)
	c0 = ticks(core)
	ch0 := childTicks(core)
	time.Sleep(secs)
	f.windowSpeaking = sumTicks(win) - w0
	f.busiest = busiest(th0, threadTicks(win), 5)
	f.coreSpeaking = ticks(core) - c0
	f.childrenSpeaking = childTicks(core) - ch0
	return f, nil
}
