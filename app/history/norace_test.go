//go:build !race

package history

const raceDetector = false
