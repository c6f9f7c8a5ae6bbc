//go:build race

package history

// raceDetector: the 100,000-row figures are measured without it (filling
// the rows under it takes minutes, and it is not the speed users get).
const raceDetector = true
