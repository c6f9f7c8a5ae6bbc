package playback

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkRenderToSpeechStart measures Render → its first speech_start
// event with the instant silent voice, and reports p50/p99 in ns.
func BenchmarkRenderToSpeechStart(b *testing.B) {
	started := make(chan time.Time, 1)
	p := New(Options{Voice: Silent{}, OnEvent: func(ev Event) {
		if ev.Kind == SpeechStart {
			select {
			case started <- time.Now():
			default:
			}
		}
	}})
	defer p.Close()
	segs := []Segment{{Cues: nil, Speech: "All green. Want the slow ones listed?"}}
	lat := make([]time.Duration, 0, b.N)
	for b.Loop() {
		t := time.Now()
		p.Render("1", segs)
		lat = append(lat, (<-started).Sub(t))
		p.Interrupt()
		select { // a later sentence may have started before the interrupt
		case <-started:
		default:
		}
	}
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
	b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
}
