package jpegfit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sweepSpecs are the inputs the sweep draws from: screenshots first, then
// attachments of every supported format and some extreme aspects.
func sweepSpecs() (screens, attachments []sourceSpec) {
	screens = []sourceSpec{
		{1280, 720, "png", 1}, {1920, 1080, "png", 2}, {2560, 1440, "jpeg", 3},
		{3840, 2160, "png", 4},
	}
	attachments = []sourceSpec{
		{64, 64, "png", 10}, {320, 200, "gif", 11}, {800, 600, "jpeg", 12},
		{1000, 37, "png", 13}, {37, 1000, "jpeg", 14}, {1024, 768, "png", 15},
		{0, 0, "video-001.lossy.webp", 0}, {0, 0, "yellow_rose.lossy-with-alpha.webp", 0},
		{1366, 768, "jpeg", 16}, {640, 480, "png", 17},
	}
	return screens, attachments
}

// sweepCaps are the fixed caps; the sweep adds log-uniform ones between.
func sweepCaps() []int { return []int{16 << 10, 64 << 10, 256 << 10, 1 << 20, 8 << 20} }

// TestFitSweep checks the invariants over generated screenshots and
// attachments, 1–7 images, caps from 16 KiB to 8 MiB.
func TestFitSweep(t *testing.T) {
	cases := 48
	screens, attachments := sweepSpecs()
	if testing.Short() || raceEnabled {
		// The race detector slows pixel loops about tenfold: fewer cases,
		// smaller screenshots.
		cases = 7
		screens = []sourceSpec{{640, 360, "png", 1}}
		attachments = attachments[:8]
	}
	var reencoded, passed, tooLarge int
	cache := sources{}
	rng := rand.New(rand.NewPCG(2026, 6))
	caps := sweepCaps()
	for c := range cases {
		n := 1 + c%7
		var specs []sourceSpec
		if c%3 != 2 {
			specs = append(specs, screens[rng.IntN(len(screens))])
		}
		for len(specs) < n {
			specs = append(specs, attachments[rng.IntN(len(attachments))])
		}
		capBytes := caps[c%len(caps)]
		if c >= 2*len(caps) {
			capBytes = int(math.Exp(rng.Float64()*math.Log(512)) * (16 << 10))
		}
		t.Run(fmt.Sprintf("%02d_%dimg_cap%d", c, n, capBytes), func(t *testing.T) {
			srcs := make([]source, len(specs))
			for i, s := range specs {
				srcs[i] = cache.get(t, s)
			}
			f := newTestFrame(fmt.Sprintf("ok: case %d", c))
			res, err := fit(srcs, f, capBytes)
			checkFit(t, srcs, f, capBytes, res, err)
			if err != nil {
				tooLarge++
			}
			for _, o := range res.Images {
				if o.Reencoded {
					reencoded++
				} else {
					passed++
				}
			}
		})
	}
	t.Logf("%d cases: %d images re-encoded, %d passed through, %d ErrTooLarge", cases, reencoded, passed, tooLarge)
	if reencoded == 0 || passed == 0 {
		t.Fatalf("sweep misses an outcome: %d re-encoded, %d passed", reencoded, passed)
	}
}

// TestFitLargest fits an 8K screenshot (7680×4320, the largest size the
// sweep covers) with attachments into the default 256 KiB frame.
func TestFitLargest(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("an 8K round trip takes half a minute under -race; the normal run covers it")
	}
	cache := sources{}
	srcs := []source{
		cache.get(t, sourceSpec{7680, 4320, "jpeg", 40}),
		cache.get(t, sourceSpec{64, 64, "png", 41}),
		cache.get(t, sourceSpec{800, 600, "png", 42}),
	}
	f := newTestFrame("ok")
	res, err := fit(srcs, f, 256<<10)
	checkFit(t, srcs, f, 256<<10, res, err)
	if err != nil || !res.Images[0].Reencoded || res.Images[1].Reencoded {
		t.Fatalf("want screenshot re-encoded and icon passed through: %+v, %v", res.Images, err)
	}
}
