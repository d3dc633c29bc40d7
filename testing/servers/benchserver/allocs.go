package benchserver

import "testing"

// raceSlack is what the race detector adds to a call's allocations: its
// sync.Pool drops a quarter of what is put back (the client's pool,
// sonic's), so some calls allocate what they would have reused.
const raceSlack = 8

// CheckSteadyAllocs runs call a few times, then fails t when it makes
// more than max allocations per run on average (testing.AllocsPerRun):
// the steady state of like calls. Under the race detector (make test's
// lane for the library) the bound is max + raceSlack.
func CheckSteadyAllocs(t *testing.T, what string, max float64, call func()) {
	t.Helper()
	if raceEnabled {
		max += raceSlack
	}
	for range 5 {
		call()
	}
	if n := testing.AllocsPerRun(200, call); n > max {
		t.Errorf("%s: %v allocations per call, want at most %v (race detector: %v)", what, n, max, raceEnabled)
	}
}

// BenchCalls runs call b.N times, reporting allocations (the steady
// state's benchmark beside CheckSteadyAllocs).
func BenchCalls(b *testing.B, call func()) {
	b.ReportAllocs()
	for b.Loop() {
		call()
	}
}
