//go:build race

package jpegfit

// raceEnabled trims the test sweeps: the race detector slows pixel loops
// about tenfold.
const raceEnabled = true
