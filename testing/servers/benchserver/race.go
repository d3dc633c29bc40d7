//go:build race

package benchserver

// raceEnabled: CheckSteadyAllocs allows for the race detector's pools.
const raceEnabled = true
