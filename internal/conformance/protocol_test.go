package conformance

import "testing"

// TestProtocolSuites runs the protocol suites and reports their counts and
// failures. It does not fail on case failures until the suites pass and are
// listed in Suites; it fails when a suite cannot run at all.
func TestProtocolSuites(t *testing.T) {
	shared, err := SharedDir()
	if err != nil {
		t.Skip(err)
	}
	for _, s := range ProtocolSuites {
		r := s.Run(shared)
		for _, f := range r.Failures {
			t.Log("FAIL", f)
		}
		for _, n := range r.Notes {
			t.Log(n)
		}
		t.Log(r.Summary())
		if r.Passed == 0 {
			t.Errorf("%s: no case passed", s.Name)
		}
	}
}
