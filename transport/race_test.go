//go:build race

package transport

// raceEnabled: the race detector allows 8,128 goroutines at once, fewer
// than the tests of 10,000 calls in flight need.
const raceEnabled = true
