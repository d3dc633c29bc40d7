//go:build !race

package typed_test

// raceEnabled: allocation counts are the plain build's.
const raceEnabled = false
