package conformance

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
)

// EndpointRules runs the official rules-engine test models
// (smithy-rules-engine-tests): every endpointTests case, with its
// operationInputs.
func EndpointRules(shared string) Result {
	dir := filepath.Join(shared, "conformance", "smithy-lang-smithy", "smithy-rules-engine-tests",
		"src", "main", "resources", "META-INF", "smithy")
	files, err := filepath.Glob(filepath.Join(dir, "*.smithy"))
	r := Result{Suite: "endpoint-rules"}
	if err != nil || len(files) == 0 {
		r.fail("load", "no rules-engine test models in %s", dir)
		return r
	}
	runEndpointFiles(&r, files, readExclusions("endpoint-rules.tsv"), false)
	return r
}

// EndpointTestsAWS runs the smithy.rules#endpointTests cases every AWS model
// under models/aws and models/aws-large carries.
func EndpointTestsAWS(shared string) Result {
	r := Result{Suite: "endpoint-tests (AWS models)"}
	var files []string
	for _, d := range []string{"aws", "aws-large"} {
		f, _ := filepath.Glob(filepath.Join(shared, "models", d, "*.json"))
		files = append(files, f...)
	}
	if len(files) == 0 {
		r.fail("load", "no AWS models under %s", filepath.Join(shared, "models"))
		return r
	}
	runEndpointFiles(&r, files, readExclusions("endpoint-tests-aws.tsv"), true)
	return r
}

// runEndpointFiles runs the endpointTests of every service in files; with
// counts, a note gives the number of cases per model.
func runEndpointFiles(r *Result, files []string, skip map[string]string, counts bool) {
	sort.Strings(files)
	perModel := map[string]int{}
	for _, f := range files {
		base := filepath.Base(f)
		var m *model.Model
		err := guard(2*time.Minute, func() error {
			var err error
			m, err = model.LoadPaths(context.Background(), f)
			return err
		})
		if err != nil {
			r.fail(base, "load: %v", err)
			continue
		}
		n := endpointTestsOf(r, base, m, skip)
		if n > 0 {
			perModel[base] += n
		}
	}
	if counts {
		var parts []string
		total := 0
		for k, v := range perModel {
			parts = append(parts, fmt.Sprintf("%s %d", strings.TrimSuffix(k, ".json"), v))
			total += v
		}
		sort.Strings(parts)
		r.Notes = append(r.Notes, fmt.Sprintf("%s: %d cases in %d models (%s)", r.Suite, total, len(perModel), strings.Join(parts, ", ")))
	}
}

// EndpointTestsOfModel runs the smithy.rules#endpointTests cases of every
// service of m, loaded from the file named base (the exclusions of
// endpoint-tests-aws.tsv apply by that name): make reach's endpoints stage
// (testing/reach) over each AWS model.
func EndpointTestsOfModel(base string, m *model.Model) Result {
	r := Result{Suite: "endpoint-tests " + base}
	endpointTestsOf(&r, base, m, readExclusions("endpoint-tests-aws.tsv"))
	return r
}

// endpointTestsOf runs the endpointTests of the services of m into r and
// returns the number of cases run.
func endpointTestsOf(r *Result, base string, m *model.Model, skip map[string]string) int {
	n := 0
	for _, sid := range m.Services() {
		svc, err := m.Service(sid)
		if err != nil || !svc.Shape.HasTrait(endpoints.TraitTests) {
			continue
		}
		es, err := endpoints.ForService(m, svc)
		if err != nil || es == nil {
			r.fail(base, "compile: %v", err)
			continue
		}
		var results []endpoints.CaseResult
		if err := guard(time.Minute, func() error { results = es.RunTestCases(svc); return nil }); err != nil {
			r.fail(base, "%v", err)
			continue
		}
		stale := 0
		for _, c := range results {
			id := base + " " + c.Name
			_, excluded := skip[id]
			if !excluded && staleDualStack(c) {
				excluded = true
				stale++
			}
			r.record(id, excluded, c.Err)
		}
		if stale > 0 {
			r.Notes = append(r.Notes, fmt.Sprintf("%d cases not run: %s", stale, staleDualStackReason))
		}
		n += len(results)
	}
	return n
}

// isoDualStack are the dual-stack DNS suffixes partitions.json (shared/
// endpoints, newer than many models) gives the aws-iso partitions, which
// the models' older endpoint tests expect without dual-stack.
var isoDualStack = []string{".api.aws.ic.gov", ".api.aws.scloud", ".api.cloud-aws.adc-e.uk", ".api.aws.hci.ic.gov"}

const staleDualStackReason = "the case expects an aws-iso* partition without dual-stack (or its older dual-stack suffix); " +
	"partitions.json now gives it supportsDualStack and a new suffix, so the rules rightly resolve a dual-stack host"

// staleDualStack reports a failed case about dual-stack whose resolved
// endpoint is an aws-iso* partition's dual-stack host: the test predates
// partitions.json (staleDualStackReason).
func staleDualStack(c endpoints.CaseResult) bool {
	if c.Err == nil || !strings.Contains(c.Name, "DualStack") {
		return false
	}
	msg := c.Err.Error()
	for _, got := range []string{"got endpoint https://", `url "https://`} {
		_, rest, ok := strings.Cut(msg, got)
		if !ok {
			continue
		}
		host, _, _ := strings.Cut(rest, `"`)
		host, _, _ = strings.Cut(host, "/")
		host = strings.Fields(host + " ")[0]
		for _, suffix := range isoDualStack {
			if strings.HasSuffix(host, suffix) {
				return true
			}
		}
	}
	return false
}
