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
			for _, c := range results {
				id := base + " " + c.Name
				_, excluded := skip[id]
				r.record(id, excluded, c.Err)
			}
			perModel[base] += len(results)
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
