//go:build !race

package jpegfit

const raceEnabled = false
