//go:build !race

package main

// raceEnabled: allocation counts are the plain build's.
const raceEnabled = false
