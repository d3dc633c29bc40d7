// Package conformance runs the project's conformance suites against the test
// data in the shared folder (SMITHYCURL_SHARED, default ../shared).
package conformance

import (
	"embed"
	"fmt"
	"strings"
	"time"
)

//go:embed exclusions
var exclusionFiles embed.FS

// Result is the outcome of one suite.
type Result struct {
	Suite                   string
	Passed, Failed, Skipped int
	// Failures describe each failed case: "case id: what differed".
	Failures []string
	// Notes are extra figures the suite reports.
	Notes []string
}

// Summary is the suite's line: "<suite>: N passed, N failed, N skipped".
func (r Result) Summary() string {
	return fmt.Sprintf("%s: %d passed, %d failed, %d skipped", r.Suite, r.Passed, r.Failed, r.Skipped)
}

func (r *Result) fail(id string, format string, args ...any) {
	r.Failed++
	r.Failures = append(r.Failures, id+": "+fmt.Sprintf(format, args...))
}

// record counts a case that ran with outcome err: passed or failed, or,
// when an exclusion lists it, skipped, unless it passes: then it fails,
// for the exclusion is stale.
func (r *Result) record(id string, excluded bool, err error) {
	switch {
	case excluded && err == nil:
		r.fail(id, "excluded, but passes: remove the exclusion")
	case excluded:
		r.Skipped++
	case err != nil:
		r.fail(id, "%v", err)
	default:
		r.Passed++
	}
}

// Suite is a named conformance suite.
type Suite struct {
	Name string
	Run  func(shared string) Result
}

// Suites lists every suite in the order `make conformance` prints them.
var Suites = []Suite{
	{"idl-valid", IDLValid},
	{"idl-invalid", IDLInvalid},
	{"idl-errorfiles", IDLErrorFiles},
	{"models-load", ModelsLoad},
	{"restJson1", RestJSON1},
	{"eventStream-restJson1", EventStreamRestJSON1},
	{"simpleRestJson", SimpleRestJSON},
	{"awsJson1_0", AWSJSON1_0},
	{"awsJson1_1", AWSJSON1_1},
	{"restXml", RestXML},
	{"awsQuery", AWSQuery},
	{"ec2Query", EC2Query},
	{"endpoint-rules", EndpointRules},
	{"endpoint-tests-aws", EndpointTestsAWS},
	{"restJson1 (server)", RestJSON1Server},
	{"simpleRestJson (server)", SimpleRestJSONServer},
	{"restXml (server)", RestXMLServer},
	{"restJson1 malformed requests (server)", MalformedRestJSON1},
	{"awsJson1_0 (server)", AWSJSON10Server},
	{"awsJson1_1 (server)", AWSJSON11Server},
	{"awsQuery (server)", AWSQueryServer},
	{"ec2Query (server)", EC2QueryServer},
	{"rpcv2Cbor", RPCv2CBOR},
	{"rpcv2Json", RPCv2JSON},
	{"rpcv2Cbor (server)", RPCv2CBORServer},
	{"rpcv2Json (server)", RPCv2JSONServer},
	{"jmespath", JMESPath},
}

// guard runs one case with a time bound and turns a panic into an error, so
// that one bad case cannot stop or hang a suite.
func guard(limit time.Duration, f func() error) (err error) {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v", p)
			}
		}()
		done <- f()
	}()
	select {
	case err = <-done:
		return err
	case <-time.After(limit):
		return fmt.Errorf("did not finish within %s", limit)
	}
}

// readExclusions reads a checked-in list of "case id<TAB>reason" lines.
func readExclusions(name string) map[string]string {
	out := map[string]string{}
	data, err := exclusionFiles.ReadFile("exclusions/" + name)
	if err != nil {
		return out
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, "\t")
		out[id] = reason
	}
	return out
}
