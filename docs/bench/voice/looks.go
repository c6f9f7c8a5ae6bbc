package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The looks compared side by side: a VRM look folder made for the bench, and the comparison of looks.

// vrmFolder writes the VRM look folder "benchvrm" of the generated test
// model (frontend/tests/vrm/yui-test-1.0.vrm) into config.
func vrmFolder(config string, breathing bool) error {
	b, err := os.ReadFile(filepath.Join("frontend", "tests", "vrm", "yui-test-1.0.vrm"))
	if err != nil {
		return fmt.Errorf("the VRM test model (run from the repository root): %w", err)
	}
	dir := filepath.Join(config, "looks", "benchvrm")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	manifest := `{"name": "Bench VRM", "breathing": "off"}`
	if breathing {
		manifest = `{"name": "Bench VRM", "breathing": "low"}`
	}
	if err := os.WriteFile(filepath.Join(dir, "look.json"), []byte(manifest), 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "model.vrm"), b, 0o600)
}

// compareLooks measures the pet window tree idle and speaking in each look,
// reps rounds in rotating order, and prints the ratios to the first.
func compareLooks(bin, before string, looks []string, reps int, secs, settle time.Duration) error {
	r, err := startRig()
	if err != nil {
		return err
	}
	defer r.close()
	type state struct {
		name, look, bin string
		idle, speaking  []int
	}
	var states []*state
	for _, name := range looks {
		l, tag, tagged := strings.Cut(name, "@")
		if l != "svg" && l != "vrm" && l != "vrm-breathing" {
			return fmt.Errorf("-looks: %q is not svg, vrm or vrm-breathing", l)
		}
		b := bin
		if tagged {
			if tag != "before" || before == "" {
				return fmt.Errorf("-looks: %q: only look@before, with -before", name)
			}
			b = before
		}
		states = append(states, &state{name: name, look: l, bin: b})
	}
	fmt.Printf("look bench, %s, %v per state, %d rounds, %s\n", time.Now().UTC().Format(time.RFC3339), secs, reps, strings.TrimSpace(sh("uptime")))
	for i := range reps {
		for j := range states {
			st := states[(i+j)%len(states)]
			f, err := measureLook(st.bin, r.backend, r.pulseAddr, false, st.look, secs, settle)
			if err != nil {
				return fmt.Errorf("%s: %w", st.name, err)
			}
			st.idle = append(st.idle, f.windowIdle)
			st.speaking = append(st.speaking, f.windowSpeaking)
			fmt.Printf("round %d: %s: pet window tree idle %d ticks, speaking %d ticks (load: %s)\n", i+1, st.name, f.windowIdle, f.windowSpeaking,
				strings.TrimSpace(sh("cat", "/proc/loadavg")))
		}
	}
	sum := func(t []int) (n int) {
		for _, v := range t {
			n += v
		}
		return n
	}
	base := states[0]
	for _, st := range states {
		fmt.Printf("%s: idle %v ticks (%.2fx %s), speaking %v ticks (%.2fx %s)\n", st.name,
			st.idle, float64(sum(st.idle))/float64(max(1, sum(base.idle))), base.name,
			st.speaking, float64(sum(st.speaking))/float64(max(1, sum(base.speaking))), base.name)
	}
	return nil
}
