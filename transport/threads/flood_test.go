package threads

import (
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"testing"

	"yui/transport"
)

// A hostile or broken runtime floods the stream (issue 23): tiny chunks of
// one message that never ends a sentence, and many message ids in one run.
// The model's work per chunk stays constant and what it holds is bounded
// and freed when the run ends.

// floodModel is a model whose events are only counted, in a run that has
// started, with one pending assistant message a1.
func floodModel(t testing.TB) (*model, *int) {
	t.Helper()
	n := new(int)
	m := newModel(slog.New(slog.DiscardHandler), func(transport.Event) { *n++ }, func(string) {})
	m.frame(frame{Type: TypeStepStarted})
	return m, n
}

// chunkFrames are n message_chunk frames of 8 bytes each for message id,
// none ending a sentence.
func chunkFrames(id string, n int) []frame {
	out := make([]frame, n)
	for i := range out {
		out[i] = frame{Type: TypeMessageChunk, MessageID: id, Chunk: "lorem ip"}
	}
	return out
}

// chunkCost is the CPU time per chunk of applying n chunks of one
// message, the best of three runs (the least disturbed by the machine).
func chunkCost(t testing.TB, n int) float64 {
	t.Helper()
	best := 0.0
	for range 3 {
		m, _ := floodModel(t)
		fs := chunkFrames("a1", n)
		runtime.GC()
		start := cpuTime()
		for _, f := range fs {
			m.frame(f)
		}
		per := float64(cpuTime()-start) / float64(n)
		if best == 0 || per < best {
			best = per
		}
	}
	return best
}

// The CPU a chunk costs does not grow with the message: 80,000 chunks of 8
// bytes cost per chunk what 5,000 do (it was quadratic: every chunk
// re-scanned the unfinished message, 16× per chunk at 80k).
func TestChunkFloodCostsTheSamePerChunk(t *testing.T) {
	small := chunkCost(t, 5_000)
	large := chunkCost(t, 80_000)
	ratio := large / small
	t.Logf("CPU per chunk: %.0f ns at 5k chunks, %.0f ns at 80k chunks: ratio %.2f", small, large, ratio)
	if ratio > 3 {
		t.Fatalf("a chunk of an 80k-chunk message costs %.1f× one of a 5k-chunk message, want about 1× (linear)", ratio)
	}
}

// BenchmarkChunkFlood reports the CPU per chunk at 5k and 80k chunks of one
// message, and their ratio (1 is linear).
func BenchmarkChunkFlood(b *testing.B) {
	for b.Loop() {
		small := chunkCost(b, 5_000)
		large := chunkCost(b, 80_000)
		b.ReportMetric(small, "ns/chunk@5k")
		b.ReportMetric(large, "ns/chunk@80k")
		b.ReportMetric(large/small, "ratio")
	}
}

// The streamed text is still spoken whole once the flood ends a sentence.
func TestChunkFloodStillSpeaksTheMessage(t *testing.T) {
	var said []string
	m := newModel(slog.New(slog.DiscardHandler), func(e transport.Event) {
		if s, ok := e.(transport.Speech); ok {
			for _, seg := range s.Segments {
				said = append(said, seg.Speech)
			}
		}
	}, func(string) {})
	m.frame(frame{Type: TypeStepStarted})
	for _, f := range chunkFrames("a1", 5_000) {
		m.frame(f)
	}
	m.frame(frame{Type: TypeMessageChunk, MessageID: "a1", Chunk: "end. Next"})
	want := strings.Repeat("lorem ip", 5_000) + "end."
	if len(said) != 1 || said[0] != want {
		t.Fatalf("said %d sentences (first %d bytes), want the whole flood as one sentence of %d bytes", len(said), len(first(said)), len(want))
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// 287 message ids of 1 MiB each in one run (the probe took RSS from 61 to
// 643 MB, and it stayed there), each also with a pending record of 128 KiB
// (37 MB of records): the drafts and records are bounded in count and
// bytes while the run goes, and freed when it ends.
func TestDraftsFloodIsBoundedAndFreedAtRunEnd(t *testing.T) {
	const ids, perID, chunkBytes = 287, 1 << 20, 64 << 10
	piece := strings.Repeat("x", chunkBytes-1) + " "
	content := strings.Repeat("y", 128<<10)
	m, _ := floodModel(t)
	before := heapInUse()
	for i := range ids {
		id := fmt.Sprintf("a%d", i)
		m.frame(frame{Type: TypeMessageData, MessageID: id,
			Data: []byte(fmt.Sprintf(`{"id":%q,"role":"assistant","status":"pending","content":%q}`, id, content))})
		for range perID / chunkBytes {
			m.frame(frame{Type: TypeMessageChunk, MessageID: id, Chunk: piece})
		}
	}
	during := heapInUse()
	m.frame(frame{Type: TypeStopped, Reason: "done"})
	after := heapInUse()
	runtime.KeepAlive(m) // the model lives on after a run: what it holds is what counts
	mb := func(n uint64) float64 { return float64(n) / (1 << 20) }
	grew := func(n uint64) float64 {
		if n < before {
			return 0
		}
		return mb(n - before)
	}
	t.Logf("heap in use: %.1f MB before, +%.1f MB during the run, +%.1f MB after it ended", mb(before), grew(during), grew(after))
	if bound := mb(maxDraftsBytes+maxRecordsBytes) + 4; grew(during) > bound {
		t.Errorf("the run held %.1f MB of drafts and records, want at most their bounds (%.0f MB)", grew(during), bound)
	}
	if grew(after) > 10 {
		t.Errorf("%.1f MB still held after the run ended, want within 10 MB of before", grew(after))
	}
}

// 100,000 message ids of one chunk each in one run: the model holds at most
// maxDraftsPerRun drafts for it; the frames of the rest are dropped.
func TestDraftsPerRunAreBounded(t *testing.T) {
	m, _ := floodModel(t)
	for i := range 100_000 {
		m.frame(frame{Type: TypeMessageChunk, MessageID: fmt.Sprintf("a%d", i), Chunk: "Hi. "})
	}
	if n := len(m.drafts); n > maxDraftsPerRun {
		t.Fatalf("%d drafts held in one run, want at most %d", n, maxDraftsPerRun)
	}
	m.frame(frame{Type: TypeStopped, Reason: "done"})
	if n := len(m.drafts); n > maxRemembered+maxDraftsPerRun {
		t.Fatalf("%d drafts held after the run, want at most %d", n, maxRemembered+maxDraftsPerRun)
	}
}
