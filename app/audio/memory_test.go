package audio_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"yui/app/audio"
)

func TestMemoryPlaysInRealTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &audio.Memory{Buffer: 40 * time.Millisecond, Latency: 10 * time.Millisecond}
		ctx := context.Background()
		st, err := m.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 8000, Channels: 1}, Name: "a"})
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		chunk := make([]int16, 160) // 20 ms
		var heard []time.Duration
		for range 5 {
			h, err := st.Write(ctx, chunk)
			if err != nil {
				t.Fatal(err)
			}
			heard = append(heard, h.Sub(t0))
		}
		// The first chunk is heard after the latency, the rest follow
		// back to back; the writer is held to one buffer ahead.
		for i, h := range heard {
			if want := 10*time.Millisecond + time.Duration(i)*20*time.Millisecond; h != want {
				t.Errorf("chunk %d heard at %v, want %v", i, h, want)
			}
		}
		if ahead := time.Until(t0.Add(110 * time.Millisecond)); ahead > 40*time.Millisecond {
			t.Errorf("writer %v ahead of the speaker, buffer is 40 ms", ahead)
		}
		if err := st.Drain(ctx); err != nil {
			t.Fatal(err)
		}
		if got := time.Since(t0); got != 110*time.Millisecond {
			t.Errorf("drained at %v, want 110ms", got)
		}
		hs := m.Heard()
		total := 0
		for i, c := range hs {
			total += len(c.Samples)
			if i > 0 && !c.At.Equal(hs[i-1].End()) {
				t.Errorf("gap before chunk %d: %v", i, c.At.Sub(hs[i-1].End()))
			}
		}
		if total != 5*160 {
			t.Errorf("heard %d samples, want %d", total, 5*160)
		}
	})
}

func TestMemoryCloseDropsTheRest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &audio.Memory{Buffer: 100 * time.Millisecond}
		ctx := context.Background()
		st, err := m.Open(ctx, audio.StreamOptions{Format: audio.Format{Rate: 8000, Channels: 1}})
		if err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		if _, err := st.Write(ctx, make([]int16, 800)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(30 * time.Millisecond)
		st.Close()
		time.Sleep(time.Second)
		hs := m.Heard()
		if len(hs) != 1 || hs[0].End().Sub(t0) != 30*time.Millisecond {
			t.Fatalf("heard %+v, want one chunk cut at 30ms", hs)
		}
		if _, err := st.Write(ctx, make([]int16, 10)); err == nil {
			t.Fatal("write after close succeeded")
		}
	})
}
