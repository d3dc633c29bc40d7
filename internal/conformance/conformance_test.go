package conformance

import (
	"os"
	"testing"
)

// sharedOrSkip returns the shared test data folder. In CI (CI=true) a
// missing folder fails the test instead of skipping it.
func sharedOrSkip(t testing.TB) string {
	d, err := SharedDir()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared test data is required in CI: %v", err)
		}
		t.Skip(err)
	}
	return d
}

func TestSuites(t *testing.T) {
	shared := sharedOrSkip(t)
	for _, s := range Suites {
		t.Run(s.Name, func(t *testing.T) {
			r := s.Run(shared)
			for _, f := range r.Failures {
				t.Error(f)
			}
			if r.Passed == 0 {
				t.Errorf("%s ran no case", s.Name)
			}
			t.Log(r.Summary())
		})
	}
}
