//go:build race

package gogen_test

// raceEnabled: the race detector allocates, so allocation bounds do not
// hold under it.
const raceEnabled = true
