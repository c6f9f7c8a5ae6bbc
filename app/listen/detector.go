package listen

import (
	"math"
	"time"
)

// DetectorConfig shapes the voice detector. Zero fields take the defaults
// in parentheses.
type DetectorConfig struct {
	Rate        int           // samples per second, mono (16000)
	Sensitivity int           // 1–100: how far above the noise floor speech starts (50 = 16 dB; 100 = 8 dB; 1 = 24 dB)
	Frame       time.Duration // the unit of analysis (10 ms)
	Onset       time.Duration // loud frames in a row that open an utterance (50 ms)
	Hangover    time.Duration // quiet time that closes an utterance (600 ms)
	MinSpeech   time.Duration // loud time an utterance needs to be kept (200 ms)
	MaxLength   time.Duration // an utterance is closed at this length (15 s)
	PreRoll     time.Duration // audio kept from before the start (300 ms)
	Tail        time.Duration // audio kept after the last loud frame (250 ms)
	FloorWindow time.Duration // the noise floor is the quietest frame of this window (3 s)
}

func (c DetectorConfig) withDefaults() DetectorConfig {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if c.Rate <= 0 {
		c.Rate = 16000
	}
	if c.Sensitivity <= 0 || c.Sensitivity > 100 {
		c.Sensitivity = 50
	}
	def(&c.Frame, 10*time.Millisecond)
	def(&c.Onset, 50*time.Millisecond)
	def(&c.Hangover, 600*time.Millisecond)
	def(&c.MinSpeech, 200*time.Millisecond)
	def(&c.MaxLength, 15*time.Second)
	def(&c.PreRoll, 300*time.Millisecond)
	def(&c.Tail, 250*time.Millisecond)
	def(&c.FloorWindow, 3*time.Second)
	return c
}

// Margin is how many dB above the noise floor a frame must be to count as
// speech at sensitivity s (1–100).
func Margin(s int) float64 {
	if s <= 0 || s > 100 {
		s = 50
	}
	return 24 - 0.16*float64(s)
}

const (
	// hysteresis: once open, an utterance stays open on frames this many
	// dB below the start threshold (at most a third of the margin).
	hysteresis = 4.0
	// smoothFrames: the level is the mean power of this many frames
	// (30 ms), which steadies noise without blurring syllables.
	smoothFrames = 3
	// absFloor: nothing quieter opens an utterance, whatever the floor
	// (digital silence has no noise to adapt to).
	absFloor = -62.0
	// steadyDB: an utterance whose frames (start to last loud frame) vary
	// less than this (standard deviation in dB) is a steady noise, not
	// speech, whose syllables rise and fall by tens of dB.
	steadyDB = 3.0
	silentDB = -100.0
)

// EventKind is what the detector saw.
type EventKind int

const (
	// Start: speech opened an utterance (Offset is its first loud
	// sample).
	Start EventKind = iota + 1
	// End: the utterance closed; Audio holds it with pre-roll and tail.
	End
	// Discard: the utterance that Start opened was dropped (Reason:
	// "short", "steady").
	Discard
)

// Event is one detector event. Offsets count samples from the first one
// pushed.
type Event struct {
	Kind   EventKind
	Offset int     // Start: first loud sample; End/Discard: the last loud sample's end
	Audio  []int16 // End only
	Capped bool    // End: closed at MaxLength
	Forced bool    // Start/End: push-to-talk
	Reason string  // Discard only
}

// Detector is an energy voice detector with an adapting noise floor. It
// works on sample counts, not clocks, so the same audio always gives the
// same events. It is not safe for concurrent use.
type Detector struct {
	cfg    DetectorConfig
	frame  int // samples per frame
	margin float64
	duck   float64 // extra dB while the character speaks

	pos     int     // samples consumed
	partial []int16 // an incomplete frame

	// noise floor: minima of blocks of 10 frames over FloorWindow.
	blockMin  float64
	blockN    int
	blocks    []float64
	maxBlocks int

	// idle history for pre-roll (the last PreRoll+Onset of audio).
	hist      []int16
	histStart int
	histCap   int

	run      int // loud frames in a row (idle)
	runStart int // offset of the run's first frame

	open      bool
	forced    bool
	held      bool
	uStart    int
	lastLoud  int // end offset of the last loud frame
	loudN     int
	sum, sum2 float64 // dB of the frames from the start to the last loud one
	allN      int
	pend      []float64 // dB of quiet frames since the last loud one
	utt       []int16
	uttStart  int // offset of utt[0]

	level float64 // the last chunk's loudest frame, dBFS
	floor float64
	pw    [smoothFrames]float64 // the last frames' mean powers
	pwN   int
}

// NewDetector returns a detector.
func NewDetector(cfg DetectorConfig) *Detector {
	cfg = cfg.withDefaults()
	d := &Detector{cfg: cfg, margin: Margin(cfg.Sensitivity), floor: silentDB}
	d.frame = int(int64(cfg.Rate) * int64(cfg.Frame) / int64(time.Second))
	d.maxBlocks = int(cfg.FloorWindow / (10 * cfg.Frame))
	if d.maxBlocks < 1 {
		d.maxBlocks = 1
	}
	d.blockMin = math.Inf(1)
	d.histCap = d.samples(cfg.PreRoll + cfg.Onset + cfg.Frame)
	return d
}

func (d *Detector) samples(t time.Duration) int {
	return int(int64(d.cfg.Rate) * int64(t) / int64(time.Second))
}

// Config returns the configuration in use (defaults filled in).
func (d *Detector) Config() DetectorConfig { return d.cfg }

// SetSensitivity changes the sensitivity (1–100) from the next frame.
func (d *Detector) SetSensitivity(s int) { d.margin = Margin(s) }

// SetDuck raises the start threshold by db (0 = none): the listener
// ducks while the character speaks, so her voice through the speakers
// needs to be that much louder to count as the user's.
func (d *Detector) SetDuck(db float64) { d.duck = db }

// Open reports whether an utterance is open.
func (d *Detector) Open() bool { return d.open }

// Offset is the number of samples pushed so far.
func (d *Detector) Offset() int { return d.pos + len(d.partial) }

// Level returns the loudest frame of the last Push in dBFS, the noise
// floor, and the level speech must pass to start.
func (d *Detector) Level() (level, floor, threshold float64) {
	return d.level, d.floor, d.startThreshold()
}

func (d *Detector) startThreshold() float64 {
	return math.Max(d.floor+d.margin+d.duck, absFloor)
}

// Hold starts (true) or ends (false) a push-to-talk utterance: while held
// everything is recorded (with pre-roll) and quiet does not close it;
// releasing closes it at once. MaxLength still caps it.
func (d *Detector) Hold(on bool) []Event {
	if on == d.held {
		return nil
	}
	d.held = on
	if on {
		if d.open {
			d.forced = true
			return nil
		}
		d.begin(d.Offset(), true)
		return []Event{{Kind: Start, Offset: d.uStart, Forced: true}}
	}
	if !d.open {
		return nil
	}
	return []Event{d.finish(false)}
}

// Push feeds samples (mono, cfg.Rate) and returns what they caused.
func (d *Detector) Push(s []int16) []Event {
	var evs []Event
	d.level = silentDB
	if len(d.partial) > 0 {
		need := d.frame - len(d.partial)
		if need > len(s) {
			d.partial = append(d.partial, s...)
			return nil
		}
		d.partial = append(d.partial, s[:need]...)
		s = s[need:]
		evs = d.frameIn(d.partial, evs)
		d.partial = d.partial[:0]
	}
	for len(s) >= d.frame {
		evs = d.frameIn(s[:d.frame], evs)
		s = s[d.frame:]
	}
	d.partial = append(d.partial, s...)
	return evs
}

// framePower is a frame's mean power relative to full scale.
func framePower(f []int16) float64 {
	var e float64
	for _, v := range f {
		x := float64(v)
		e += x * x
	}
	return e / (float64(len(f)) * 32768 * 32768)
}

// smoothedDB adds a frame's power and returns the level of the last
// smoothFrames frames in dBFS.
func (d *Detector) smoothedDB(p float64) float64 {
	d.pw[d.pwN%smoothFrames] = p
	d.pwN++
	var e float64
	k := min(d.pwN, smoothFrames)
	for i := range k {
		e += d.pw[i]
	}
	e /= float64(k)
	if e <= 1e-10 {
		return silentDB
	}
	return 10 * math.Log10(e)
}

func (d *Detector) hyst() float64 { return math.Min(hysteresis, d.margin/3) }

func (d *Detector) updateFloor(db float64) {
	d.blockMin = math.Min(d.blockMin, db)
	d.blockN++
	if d.blockN == 10 {
		d.blocks = append(d.blocks, d.blockMin)
		if len(d.blocks) > d.maxBlocks {
			d.blocks = d.blocks[1:]
		}
		d.blockN, d.blockMin = 0, math.Inf(1)
	}
	f := d.blockMin
	for _, b := range d.blocks {
		f = math.Min(f, b)
	}
	d.floor = f
}

func (d *Detector) frameIn(f []int16, evs []Event) []Event {
	start := d.pos
	d.pos += len(f)
	db := d.smoothedDB(framePower(f))
	d.level = math.Max(d.level, db)
	d.updateFloor(db)
	if d.open {
		d.utt = append(d.utt, f...)
		if db >= d.startThreshold()-d.hyst() {
			d.lastLoud = d.pos
			d.loudN++
			for _, q := range append(d.pend, db) {
				d.sum += q
				d.sum2 += q * q
				d.allN++
			}
			d.pend = d.pend[:0]
		} else {
			d.pend = append(d.pend, db)
		}
		switch {
		case d.samples(d.cfg.MaxLength) <= d.pos-d.uStart:
			evs = append(evs, d.finish(true))
		case !d.held && d.pos-d.lastLoud >= d.samples(d.cfg.Hangover):
			evs = append(evs, d.finish(false))
		}
		return evs
	}
	d.hist = append(d.hist, f...)
	if over := len(d.hist) - d.histCap; over > 0 {
		d.hist = append(d.hist[:0], d.hist[over:]...)
		d.histStart += over
	}
	if db >= d.startThreshold() {
		if d.run == 0 {
			d.runStart = start
		}
		d.run++
		d.sum += db
		d.sum2 += db * db
		if d.run*d.frame >= d.samples(d.cfg.Onset) {
			loud, s, s2 := d.run, d.sum, d.sum2
			d.begin(d.runStart, false)
			d.loudN, d.sum, d.sum2, d.allN = loud, s, s2, loud
			d.lastLoud = d.pos
			evs = append(evs, Event{Kind: Start, Offset: d.uStart})
		}
	} else {
		d.run, d.sum, d.sum2 = 0, 0, 0
	}
	return evs
}

// begin opens an utterance whose speech starts at offset at.
func (d *Detector) begin(at int, forced bool) {
	d.open, d.forced = true, forced
	d.uStart, d.lastLoud = at, at
	d.loudN, d.sum, d.sum2, d.run, d.allN = 0, 0, 0, 0, 0
	d.pend = d.pend[:0]
	from := max(at-d.samples(d.cfg.PreRoll), d.histStart)
	d.utt = append(make([]int16, 0, d.samples(2*time.Second)), d.hist[from-d.histStart:]...)
	d.uttStart = from
	if len(d.partial) > 0 && forced {
		d.utt = append(d.utt, d.partial...)
	}
	d.hist, d.histStart = d.hist[:0], d.Offset()
}

// finish closes the open utterance.
func (d *Detector) finish(capped bool) Event {
	forced := d.forced
	d.open, d.forced = false, false
	if capped {
		d.held = false
	}
	audio := d.utt
	d.utt = nil
	d.hist, d.histStart = d.hist[:0], d.pos
	loudTime := time.Duration(int64(d.loudN) * int64(d.cfg.Frame))
	if loudTime < d.cfg.MinSpeech {
		return Event{Kind: Discard, Offset: d.lastLoud, Reason: "short", Forced: forced}
	}
	if !forced && d.allN > 1 {
		mean := d.sum / float64(d.allN)
		sd := math.Sqrt(math.Max(0, d.sum2/float64(d.allN)-mean*mean))
		if sd < steadyDB {
			return Event{Kind: Discard, Offset: d.lastLoud, Reason: "steady"}
		}
	}
	end := d.lastLoud + d.samples(d.cfg.Tail)
	if capped || forced {
		end = d.pos
	}
	if n := end - d.uttStart; n < len(audio) {
		audio = audio[:max(n, 0)]
	}
	return Event{Kind: End, Offset: d.lastLoud, Audio: audio, Capped: capped, Forced: forced}
}
