// Package reach runs every AWS service model of the shared data
// (aws-models/, 402 services) through the project's stages: load and
// validate, the endpoint tests, example inputs under validation, the C,
// Go and Python clients, and the differentials against botocore. One case
// per model and stage; `make reach` runs all models, make test a sample of
// them chosen by a seed from the date (testing/cmd/reach).
package reach

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Stages, in the order they run and are printed.
const (
	StageLoad      = "load"
	StageEndpoints = "endpoints"
	StageExample   = "example"
	StageC         = "c"
	StageGo        = "go"
	StagePython    = "python"
	StageRequests  = "botocore-requests"
	StageResponses = "botocore-responses"
)

// AllStages lists every stage in order.
var AllStages = []string{StageLoad, StageEndpoints, StageExample, StageC, StageGo, StagePython, StageRequests, StageResponses}

// Status is a case's outcome.
type Status int

const (
	Passed Status = iota
	Failed
	Skipped
)

// Result is the outcome of one model at one stage: Detail says why it
// failed or was skipped, Count how many sub-cases it ran (endpoint tests,
// operations, differential cases).
type Result struct {
	Model, Stage string
	Status       Status
	Detail       string
	Count        int
	// NotRun counts the sub-cases left out, by reason (an excluded
	// endpoint test, a differential case botocore cannot make).
	NotRun map[string]int
}

// Results collects the cases of a run; safe for concurrent use.
type Results struct {
	mu       sync.Mutex
	byKey    map[string]Result
	protocol map[string]string // model → protocol name
	timings  map[string]time.Duration
}

// NewResults returns an empty set.
func NewResults() *Results {
	return &Results{byKey: map[string]Result{}, protocol: map[string]string{}, timings: map[string]time.Duration{}}
}

// Set records a case (the last one for a model and stage wins).
func (r *Results) Set(res Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byKey[res.Model+"\x00"+res.Stage] = res
}

// Get returns the case of a model and stage, if recorded.
func (r *Results) Get(model, stage string) (Result, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res, ok := r.byKey[model+"\x00"+stage]
	return res, ok
}

// SetProtocol records the protocol a model's table row counts under.
func (r *Results) SetProtocol(model, proto string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.protocol[model] = proto
}

// AddTime adds d to a stage's wall time.
func (r *Results) AddTime(stage string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timings[stage] += d
}

// WriteFailures writes every failed case with its whole detail, one a
// line, to path.
func (r *Results) WriteFailures(path string) error {
	r.mu.Lock()
	var lines []string
	for _, res := range r.byKey {
		if res.Status == Failed {
			lines = append(lines, res.Stage+" "+res.Model+": "+res.Detail+"\n")
		}
	}
	r.mu.Unlock()
	sort.Strings(lines)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
}

// Print writes the table per protocol (stage × passed, failed, skipped,
// and the sub-cases run), the failures, the skips grouped by reason, and
// last `aws-models: N passed, N failed`. It returns the number of failed
// cases.
func (r *Results) Print(w io.Writer, stages []string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	type cell struct{ passed, failed, skipped, count int }
	tables := map[string]map[string]*cell{}
	var fails, skips []Result
	passed, failed := 0, 0
	for _, res := range r.byKey {
		proto := r.protocol[res.Model]
		if proto == "" {
			proto = "(not loaded)"
		}
		if tables[proto] == nil {
			tables[proto] = map[string]*cell{}
		}
		c := tables[proto][res.Stage]
		if c == nil {
			c = &cell{}
			tables[proto][res.Stage] = c
		}
		c.count += res.Count
		switch res.Status {
		case Passed:
			c.passed++
			passed++
		case Failed:
			c.failed++
			failed++
			fails = append(fails, res)
		case Skipped:
			c.skipped++
			skips = append(skips, res)
		}
	}
	protos := make([]string, 0, len(tables))
	for p := range tables {
		protos = append(protos, p)
	}
	sort.Strings(protos)
	for _, p := range protos {
		fmt.Fprintf(w, "\n%s\n  %-20s %7s %7s %7s %9s\n", p, "stage", "passed", "failed", "skipped", "sub-cases")
		for _, s := range stages {
			if c := tables[p][s]; c != nil {
				fmt.Fprintf(w, "  %-20s %7d %7d %7d %9d\n", s, c.passed, c.failed, c.skipped, c.count)
			}
		}
	}
	byModel := func(list []Result) {
		sort.Slice(list, func(i, j int) bool {
			if list[i].Stage != list[j].Stage {
				return stageIndex(list[i].Stage) < stageIndex(list[j].Stage)
			}
			return list[i].Model < list[j].Model
		})
	}
	notRun := map[string]int{}
	for _, res := range r.byKey {
		for reason, n := range res.NotRun {
			notRun[res.Stage+": "+reason] += n
		}
	}
	if len(notRun) > 0 {
		keys := make([]string, 0, len(notRun))
		for k := range notRun {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(w, "\nnot counted (sub-cases left out, warnings accepted), by reason:\n")
		for _, k := range keys {
			fmt.Fprintf(w, "  %s: %d\n", k, notRun[k])
		}
	}
	if len(skips) > 0 {
		reasons := map[string][]string{}
		for _, s := range skips {
			k := s.Stage + ": " + s.Detail
			reasons[k] = append(reasons[k], s.Model)
		}
		keys := make([]string, 0, len(reasons))
		for k := range reasons {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(w, "\nskipped (%d), by reason:\n", len(skips))
		for _, k := range keys {
			ms := reasons[k]
			sort.Strings(ms)
			list := strings.Join(ms, " ")
			if len(ms) > 12 {
				list = strings.Join(ms[:12], " ") + fmt.Sprintf(" ... (%d more)", len(ms)-12)
			}
			fmt.Fprintf(w, "  %s (%d): %s\n", k, len(ms), list)
		}
	}
	if len(fails) > 0 {
		byModel(fails)
		fmt.Fprintf(w, "\nfailed (%d):\n", len(fails))
		for _, f := range fails {
			fmt.Fprintf(w, "  %s %s: %s\n", f.Stage, f.Model, clip(f.Detail, 600))
		}
	}
	if len(r.timings) > 0 {
		var parts []string
		for _, s := range stages {
			if d, ok := r.timings[s]; ok {
				parts = append(parts, fmt.Sprintf("%s %.1f s", s, d.Seconds()))
			}
		}
		fmt.Fprintf(w, "\nstage times: %s\n", strings.Join(parts, ", "))
	}
	fmt.Fprintf(w, "aws-models: %d passed, %d failed\n", passed, failed)
	return failed
}

func stageIndex(s string) int {
	for i, x := range AllStages {
		if x == s {
			return i
		}
	}
	return len(AllStages)
}

// clip shortens s to at most n bytes, on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
