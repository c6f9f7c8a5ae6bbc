package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"yui/transport"
	"yui/transport/push"
)

// What each sentence of the story carries, as a real backend's reply does
// (one generate_express cue per sentence): nothing, an emotion, a motion,
// or both.
const (
	cuesNone    = "none"
	cuesEmotion = "emotion"
	cuesMotion  = "motion"
	cuesBoth    = "emotion+motion"
)

// The ids the cues cycle through: client-notes §4's default vocabulary.
var (
	cueEmotions = []string{"happy", "curious", "surprised", "relaxed", "thinking", "sad", "embarrassed", "angry", "sleepy", "neutral"}
	cueMotions  = []string{"happy", "laugh", "embarrassed", "sheepish", "calm", "sleeping", "idle_lively", "dance", "sulk"}
)

// storySegments is the story, one segment per sentence, each with the cue
// mode asks for (cuesNone: the whole story as one segment, as before).
func storySegments(mode any) []push.Segment {
	m, _ := mode.(string)
	if m == "" || m == cuesNone {
		return []push.Segment{{Speech: story}}
	}
	var segs []push.Segment
	for i, s := range strings.SplitAfter(strings.TrimSpace(story), ". ") {
		if strings.TrimSpace(s) == "" {
			continue
		}
		var c transport.Cue
		if m == cuesEmotion || m == cuesBoth {
			c.EmotionID = cueEmotions[i%len(cueEmotions)]
		}
		if m == cuesMotion || m == cuesBoth {
			c.MotionID = cueMotions[i%len(cueMotions)]
		}
		segs = append(segs, push.Segment{Speech: s, Cues: []push.Cue{c}})
	}
	return segs
}

// compareCues measures the pet window tree while she speaks the story with
// each cue mode (sound on: lip-sync), reps rounds in rotating order, and
// prints every mode's ticks, its share of one core and its ratio to the
// first mode, with the load average beside each measurement. A mode may
// name its own binary (motion@/tmp/old-yui) to compare builds in one run.
func compareCues(bin string, modes []string, reps int, secs, settle time.Duration, hz int) error {
	bins := make(map[string]string) // mode@binary: that binary
	for _, m := range modes {
		mode, b, ok := strings.Cut(m, "@")
		bins[m] = bin
		if ok {
			bins[m] = b
		}
		switch mode {
		case cuesNone, cuesEmotion, cuesMotion, cuesBoth:
		default:
			return fmt.Errorf("-cues: %q is not none, emotion, motion or emotion+motion", m)
		}
	}
	r, err := startRig()
	if err != nil {
		return err
	}
	defer r.close()
	ticks := make(map[string][]int)
	fmt.Printf("cue bench, %s, %v per state, %d rounds, CLK_TCK %d, %s\n", time.Now().UTC().Format(time.RFC3339), secs, reps, hz, strings.TrimSpace(sh("uptime")))
	pct := func(t int, n int) float64 {
		return 100 * float64(t) / float64(hz) / secs.Seconds() / float64(max(1, n))
	}
	for i := range reps {
		for j := range modes {
			m := modes[(i+j)%len(modes)]
			mode, _, _ := strings.Cut(m, "@")
			r.cues.Store(mode)
			f, err := measure(bins[m], r.backend, r.pulseAddr, false, secs, settle)
			if err != nil {
				return fmt.Errorf("%s: %w", m, err)
			}
			ticks[m] = append(ticks[m], f.windowSpeaking)
			fmt.Printf("round %d: %s: pet window tree %d ticks while speaking (%.2f %% of one core), idle %d ticks (load: %s)\n  busiest threads while speaking: %s\n",
				i+1, m, f.windowSpeaking, pct(f.windowSpeaking, 1), f.windowIdle, strings.TrimSpace(sh("cat", "/proc/loadavg")), f.busiest)
		}
	}
	sum := func(t []int) (n int) {
		for _, v := range t {
			n += v
		}
		return n
	}
	base := sum(ticks[modes[0]])
	for _, m := range modes {
		t := ticks[m]
		fmt.Printf("%s: %v ticks, %.2f %% of one core, %.2fx %s\n", m, t, pct(sum(t), len(t)), float64(sum(t))/float64(max(1, base)), modes[0])
	}
	return nil
}

// threadTicks is every thread of pids by "process/thread (tid)": its ticks.
func threadTicks(pids []int) map[string]int {
	out := make(map[string]int)
	for _, p := range pids {
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p))
		tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", p))
		for _, t := range tasks {
			b, err := os.ReadFile(t + "/stat")
			if err != nil {
				continue
			}
			s := string(b)
			name := s[strings.IndexByte(s, '(')+1 : strings.LastIndexByte(s, ')')]
			fs := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
			u, _ := strconv.Atoi(fs[11])
			k, _ := strconv.Atoi(fs[12])
			out[fmt.Sprintf("%s/%s (%s)", strings.TrimSpace(string(comm)), name, filepath.Base(t))] = u + k
		}
	}
	return out
}

// busiest names the n threads that gained the most ticks from a to b.
func busiest(a, b map[string]int, n int) string {
	type th struct {
		name string
		d    int
	}
	var all []th
	for k, v := range b {
		if d := v - a[k]; d > 0 {
			all = append(all, th{k, d})
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].d > all[j].d })
	var parts []string
	for i := 0; i < len(all) && i < n; i++ {
		parts = append(parts, fmt.Sprintf("%s %d", all[i].name, all[i].d))
	}
	return strings.Join(parts, "; ")
}
