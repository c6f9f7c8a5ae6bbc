package voice_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"testing"
	"time"

	"yui/app/audio"
	"yui/app/audio/pulse"
	"yui/app/audio/pulse/pulsetest"
	"yui/app/playback"
	"yui/app/tts"
	"yui/app/tts/ttstest"
	"yui/app/voice"
)

// TestFigures measures the voice on a private PulseAudio server, in one
// run: text → first audible sample for the system voice and the speech
// endpoint, and the gap the pipeline adds between two sentences. It is a
// benchmark, not a check: it runs only with YUI_VOICE_FIGURES=1
// (docs/bench/voice.sh) and reports medians.
func TestFigures(t *testing.T) {
	if os.Getenv("YUI_VOICE_FIGURES") != "1" {
		t.Skip("a benchmark: YUI_VOICE_FIGURES=1 (docs/bench/voice.sh)")
	}
	rounds := 7
	srv := pulsetest.Start(t)
	rec := srv.Record(t, pulsetest.Speaker, 48000)
	pulsetest.WaitRecorded(t, rec, time.Now())
	out := pulse.New(pulse.Options{Server: srv.Addr})
	defer out.Close()
	tsrv := ttstest.Start(t, ttstest.Options{Key: "sk-bench"})
	ctx := context.Background()
	text := "Hello there, how are you today?"

	engines := []struct {
		name string
		cfg  voice.Config
	}{
		{"system voice (espeak-ng)", voice.Config{Engine: voice.EngineSystem, System: tts.System{Voice: "en-us"}, Volume: 1}},
		{"speech endpoint (test server, wav)", voice.Config{Engine: voice.EngineEndpoint, Volume: 1,
			Endpoint: tts.Endpoint{BaseURL: tsrv.URL, Key: "sk-bench", Voice: "alloy"}}},
		{"speech endpoint (test server, pcm)", voice.Config{Engine: voice.EngineEndpoint, Volume: 1,
			Endpoint: tts.Endpoint{BaseURL: tsrv.URL, Key: "sk-bench", Voice: "alloy", Format: tts.FormatPCM}}},
	}
	tStart := time.Now()
	defer func() { t.Logf("total %v", time.Since(tStart)) }()
	report := []string{fmt.Sprintf("voice figures, %s, median of %d", time.Now().UTC().Format(time.RFC3339), rounds)}
	// The engines take turns, round by round, so a change in the
	// machine's load falls on all of them alike.
	type result struct{ total, pipeline, synth []time.Duration }
	results := make([]result, len(engines))
	speakers := make([]*voice.Speaker, len(engines))
	leads := make([]time.Duration, len(engines))
	for i, e := range engines {
		speakers[i] = voice.New(voice.Options{Name: "bench", Output: out, Logger: slog.New(slog.DiscardHandler)}, e.cfg)
		defer speakers[i].Close()
		// The clip's own lead-in (silence before the first audible
		// sample) is the engine's, not the pipeline's.
		ref, err := engineOf(e.cfg).Synthesize(ctx, tts.Request{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		leads[i] = firstLoud(ref)
	}
	for range rounds {
		for i := range engines {
			t0 := time.Now()
			clip, err := speakers[i].Synthesize(ctx, playback.Line{TurnID: "b", Text: text})
			if err != nil {
				t.Fatal(err)
			}
			synth := time.Since(t0)
			if err := clip.Play(ctx); err != nil {
				t.Fatal(err)
			}
			pulsetest.WaitRecorded(t, rec, time.Now().Add(100*time.Millisecond))
			heard := firstLoudAfter(rec, t0).Sub(t0)
			r := &results[i]
			r.total = append(r.total, heard)
			r.pipeline = append(r.pipeline, heard-leads[i]-synth)
			r.synth = append(r.synth, synth)
		}
	}
	base := median(results[0].total)
	for i, e := range engines {
		r := results[i]
		m := median(r.total)
		line := fmt.Sprintf("text → first audible sample, %s: %v (synthesis %v, the clip's own lead-in %v, play → mixed by the server %v)",
			e.name, m.Round(time.Millisecond), median(r.synth).Round(time.Millisecond), leads[i].Round(time.Millisecond),
			median(r.pipeline).Round(time.Millisecond))
		if i > 0 {
			line += fmt.Sprintf("; %+v vs the system voice (%.2fx)", (m - base).Round(time.Millisecond), float64(m)/float64(base))
		}
		report = append(report, line)
	}

	// The gap between two sentences of one reply: what the recording shows
	// between the first sentence's last audible sample and the second's
	// first, less the silence the clips themselves end and start with.
	a, b := "The first sentence ends here.", "And the second one follows."
	cfg := engines[0].cfg
	ra, _ := engineOf(cfg).Synthesize(ctx, tts.Request{Text: a})
	rb, _ := engineOf(cfg).Synthesize(ctx, tts.Request{Text: b})
	natural := (ra.Duration() - lastLoud(ra)) + firstLoud(rb)
	var gaps []time.Duration
	tg := time.Now()
	defer func() { t.Logf("gap rounds took %v", time.Since(tg)) }()
	for range rounds {
		sp := voice.New(voice.Options{Name: "bench", Output: out, Logger: slog.New(slog.DiscardHandler)}, cfg)
		idle := make(chan struct{}, 4)
		pl := playback.New(playback.Options{Voice: sp, Logger: slog.New(slog.DiscardHandler), OnEvent: func(ev playback.Event) {
			if ev.Kind == playback.Idle {
				idle <- struct{}{}
			}
		}})
		t0 := time.Now()
		pl.Render("g", []playback.Segment{{Speech: a + " " + b}})
		<-idle
		time.Sleep(voice.MaxLead) // the last sentence's tail plays out
		pl.Close()
		sp.Close()
		pulsetest.WaitRecorded(t, rec, time.Now().Add(100*time.Millisecond))
		gaps = append(gaps, widestGap(rec, t0, time.Now()))
	}
	g := median(gaps)
	report = append(report, fmt.Sprintf("gap between two sentences (system voice): %v heard, of which %v is the clips' own silence: the pipeline adds %v",
		g.Round(time.Millisecond), natural.Round(time.Millisecond), (g-natural).Round(time.Millisecond)))
	for _, l := range report {
		fmt.Println(l)
	}
}

// engineOf builds the engine of cfg, for reference syntheses.
func engineOf(cfg voice.Config) tts.Engine {
	if cfg.Engine == voice.EngineEndpoint {
		e := cfg.Endpoint
		return &e
	}
	s := cfg.System
	return &s
}

// loud is the sample magnitude counted as audible (-36 dBFS).
const loud = 512

func firstLoud(p audio.PCM) time.Duration {
	for i, v := range p.Samples {
		if v > loud || v < -loud {
			return p.Format.Duration(i)
		}
	}
	return p.Duration()
}

func lastLoud(p audio.PCM) time.Duration {
	for i := len(p.Samples) - 1; i >= 0; i-- {
		if v := p.Samples[i]; v > loud || v < -loud {
			return p.Format.Duration(i + 1)
		}
	}
	return 0
}

// firstLoudAfter is when the recording's first audible sample after t
// reached the speaker: the arrival of the packet that holds it (the null
// sink mixed it just before).
func firstLoudAfter(r *pulse.Recorder, t time.Time) time.Time {
	p := r.PCM()
	for i := r.After(t); i < len(p.Samples); i++ {
		if v := p.Samples[i]; v > loud || v < -loud {
			return r.Arrived(i)
		}
	}
	return time.Time{}
}

// widestGap is the longest run of silence between audible samples of the
// recording from..to (the pause between the two sentences).
func widestGap(r *pulse.Recorder, from, to time.Time) time.Duration {
	p := r.PCM()
	a := max(0, p.Format.Samples(from.Sub(r.Start())))
	b := min(len(p.Samples), p.Format.Samples(to.Sub(r.Start())))
	last, widest := -1, 0
	for i := a; i < b; i++ {
		if v := p.Samples[i]; v > loud || v < -loud {
			if last >= 0 && i-last > widest {
				widest = i - last
			}
			last = i
		}
	}
	return p.Format.Duration(widest)
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
