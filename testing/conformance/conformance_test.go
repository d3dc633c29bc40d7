package conformance

import (
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func TestSuites(t *testing.T) {
	dir := shareddata.Path(t)
	for _, s := range Suites {
		t.Run(s.Name, func(t *testing.T) {
			r := s.Run(dir)
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
