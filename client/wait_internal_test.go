package client

import (
	"testing"
	"time"
)

// The specification's delays: minDelay * 2^(attempt-1) jittered down to
// minDelay, maxDelay after the attempt ceiling, whole seconds, and the rest
// of the time when less than minDelay would be left after the delay.
func TestWaiterBackoff(t *testing.T) {
	const s = time.Second
	b := backoff{min: 2 * s, max: 120 * s}
	day := 24 * time.Hour
	for _, tc := range []struct {
		attempt   int
		remaining time.Duration
		lo, hi    time.Duration
	}{
		{1, day, 2 * s, 2 * s},
		{2, day, 2 * s, 4 * s},
		{3, day, 2 * s, 8 * s},
		{6, day, 2 * s, 64 * s},
		{7, day, 2 * s, 120 * s}, // past the ceiling, log2(60)+1 = 6.9
		{1 << 20, day, 2 * s, 120 * s},
		{1, 5 * s, 2 * s, 2 * s}, // 5 - 2 > 2
		{1, 4 * s, 4 * s, 4 * s}, // 4 - 2 <= 2: the rest, one last attempt
		{1, 1500 * time.Millisecond, 1500 * time.Millisecond, 1500 * time.Millisecond},
	} {
		seen := map[time.Duration]bool{}
		for range 200 {
			d := b.delay(tc.attempt, tc.remaining)
			if d < tc.lo || d > tc.hi {
				t.Fatalf("attempt %d, %s left: delay %s outside [%s, %s]", tc.attempt, tc.remaining, d, tc.lo, tc.hi)
			}
			if tc.remaining == day && d%s != 0 {
				t.Fatalf("attempt %d: delay %s is not whole seconds", tc.attempt, d)
			}
			seen[d] = true
		}
		if tc.hi-tc.lo >= 4*s && len(seen) < 3 {
			t.Errorf("attempt %d: only %d distinct delays in 200: no jitter?", tc.attempt, len(seen))
		}
	}
	// Delays that are not whole seconds are drawn in milliseconds.
	ms := backoff{min: 5 * time.Millisecond, max: 20 * time.Millisecond}
	for range 100 {
		if d := ms.delay(3, time.Hour); d < 5*time.Millisecond || d > 20*time.Millisecond || d%time.Millisecond != 0 {
			t.Fatalf("delay %s", d)
		}
	}
	// minDelay == maxDelay: linear.
	if d := (backoff{min: 3 * s, max: 3 * s}).delay(9, day); d != 3*s {
		t.Errorf("linear: %s", d)
	}
}
