package reach

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode"

	cgen "github.com/smithycurl/smithycurl/codegen/c"
	gogen "github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/testing/conformance"
)

// protocols are the AWS protocol traits with their table names, in the
// order protocol.New looks for them.
var protocols = []struct {
	id   model.ShapeID
	name string
}{
	{protocol.RestJSON1, "restJson1"}, {protocol.AWSJSON1_0, "awsJson1_0"}, {protocol.AWSJSON1_1, "awsJson1_1"},
	{protocol.RestXML, "restXml"}, {protocol.AWSQuery, "awsQuery"}, {protocol.EC2Query, "ec2Query"},
}

// protocolName is the protocol of m's one service.
func protocolName(m *model.Model) string {
	svc, err := m.Service(m.Services()[0])
	if err != nil {
		return "(no service)"
	}
	for _, p := range protocols {
		if svc.Shape.HasTrait(p.id) {
			return p.name
		}
	}
	return "(no AWS protocol)"
}

func service(m *model.Model) *model.Service {
	svc, _ := m.Service(m.Services()[0])
	return svc
}

// endpointTests runs the model's smithy.rules#endpointTests cases with the
// conformance runner of the 26 AWS models (its exclusions included).
func endpointTests(mf Model, m *model.Model) Result {
	r := conformance.EndpointTestsOfModel(mf.Name+".json", m)
	n := r.Passed + r.Failed
	notRun := map[string]int{}
	listed := r.Skipped
	for _, note := range r.Notes {
		var k int
		if count, reason, ok := strings.Cut(note, " cases not run: "); ok {
			if _, err := fmt.Sscan(count, &k); err != nil {
				continue
			}
			notRun[reason] += k
			listed -= k
		}
	}
	if listed > 0 {
		notRun["excluded by testing/conformance/exclusions/endpoint-tests-aws.tsv"] += listed
	}
	switch {
	case r.Failed > 0:
		return Result{Status: Failed, Count: n, NotRun: notRun, Detail: fmt.Sprintf("%d of %d cases: %s", r.Failed, n, strings.Join(r.Failures, "; "))}
	case n == 0 && r.Skipped == 0:
		return Result{Status: Skipped, Detail: "the model has no endpointTests"}
	}
	return Result{Count: n, NotRun: notRun}
}

// examples checks describe.Example's input of every operation (smithycurl
// example) with the codec's validation on, constraints included
// (smithycurl call --validate).
func examples(ctx context.Context, m *model.Model) Result {
	svc := service(m)
	codec, err := protocol.New(m, svc, protocol.WithValidation())
	if err != nil {
		return Result{Status: Failed, Detail: fmt.Sprintf("codec: %v", err)}
	}
	var bad []string
	for _, op := range svc.Operations {
		in := describe.Example(m, op).JSON()
		if _, err := codec.EncodeRequest(ctx, op, []byte(in)); err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v (example %s)", op.Name, err, clip(in, 200)))
		}
	}
	if len(bad) > 0 {
		return Result{Status: Failed, Count: len(svc.Operations), Detail: fmt.Sprintf("%d of %d operations: %s", len(bad), len(svc.Operations), strings.Join(bad, "; "))}
	}
	return Result{Count: len(svc.Operations)}
}

// cJob is a generated C client to compile.
type cJob struct{ model, dir, name string }

// strictC are the flags every generated client compiles with.
var strictC = []string{"-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"}

// generateC writes the C client as `smithycurl gen c` does without
// --prefix (the prefix from the service name); a result when it failed.
func generateC(cfg Config, mf Model, m *model.Model) (cJob, *Result) {
	svc := service(m)
	name := cgen.Snake(svc.Shape.ID.Name())
	h, c, err := cgen.Generate(m, svc, cgen.Options{Prefix: name, Name: name})
	fail := func(err error) (cJob, *Result) {
		return cJob{}, &Result{Model: mf.Name, Stage: StageC, Status: Failed, Detail: err.Error()}
	}
	if err != nil {
		return fail(fmt.Errorf("gen c: %w", err))
	}
	dir := filepath.Join(cfg.Work, "c", mf.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{name + ".h", h}, {name + ".c", c}} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			return fail(err)
		}
	}
	return cJob{mf.Name, dir, name}, nil
}

// compileC compiles a generated client with the strict flags (syntax
// only: nothing is linked).
func compileC(ctx context.Context, cfg Config, j cJob) Result {
	args := append(append([]string{}, strictC...), "-fsyntax-only", "-I"+filepath.Join(cfg.Root, "include"), "-I"+j.dir, filepath.Join(j.dir, j.name+".c"))
	out, err := exec.CommandContext(ctx, "cc", args...).CombinedOutput()
	r := Result{Model: j.model, Stage: StageC, Count: 1}
	if err != nil {
		r.Status, r.Detail = Failed, fmt.Sprintf("cc: %v: %s", err, firstLines(string(out), 6))
	}
	if err == nil {
		os.RemoveAll(j.dir)
	}
	return r
}

// goBatch is the generated Go packages of a run, built at once: one
// folder of this module (Work/go), one go build and one go vet.
type goBatch struct {
	cfg  Config
	mu   sync.Mutex
	pkgs map[string]string // package → model
}

func newGoBatch(cfg Config) *goBatch { return &goBatch{cfg: cfg, pkgs: map[string]string{}} }

// add generates the model's package; a result when that failed.
func (b *goBatch) add(mf Model, m *model.Model) *Result {
	var name strings.Builder
	for _, r := range strings.ToLower(mf.Name) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			name.WriteRune(r)
		}
	}
	b.mu.Lock()
	pkg := "aws" + name.String()
	for i := 2; b.pkgs[pkg] != ""; i++ {
		pkg = fmt.Sprintf("aws%s%d", name.String(), i)
	}
	b.pkgs[pkg] = mf.Name
	b.mu.Unlock()
	fail := func(err error) *Result {
		b.mu.Lock()
		delete(b.pkgs, pkg)
		b.mu.Unlock()
		return &Result{Model: mf.Name, Stage: StageGo, Status: Failed, Detail: err.Error()}
	}
	files, err := gogen.Generate(m, service(m), pkg)
	if err != nil {
		return fail(fmt.Errorf("gen go: %w", err))
	}
	dir := filepath.Join(b.cfg.Work, "go", pkg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return fail(err)
		}
	}
	return nil
}

// build runs go build, then go vet, over every package of the batch and
// records a result per model: a package fails when the tools name it.
func (b *goBatch) build(ctx context.Context, res *Results) {
	if len(b.pkgs) == 0 {
		return
	}
	rel, err := filepath.Rel(b.cfg.Root, filepath.Join(b.cfg.Work, "go"))
	if err != nil || strings.HasPrefix(rel, "..") {
		for pkg, m := range b.pkgs {
			res.Set(Result{Model: m, Stage: StageGo, Status: Failed, Detail: fmt.Sprintf("the work folder %s is outside the module at %s", b.cfg.Work, b.cfg.Root)})
			delete(b.pkgs, pkg)
		}
		return
	}
	pattern := "./" + filepath.ToSlash(rel) + "/..."
	failed := map[string][]string{}
	for _, tool := range []string{"build", "vet"} {
		cmd := exec.CommandContext(ctx, "go", tool, pattern)
		cmd.Dir = b.cfg.Root
		out, err := cmd.CombinedOutput()
		if err == nil {
			continue
		}
		matched := false
		for pkg := range b.pkgs {
			lines := linesNaming(string(out), "/go/"+pkg)
			if len(lines) > 0 {
				failed[pkg] = append(failed[pkg], fmt.Sprintf("go %s: %s", tool, strings.Join(lines, " | ")))
				matched = true
			}
		}
		if !matched {
			for pkg := range b.pkgs {
				failed[pkg] = append(failed[pkg], fmt.Sprintf("go %s %s: %v: %s", tool, pattern, err, firstLines(string(out), 6)))
			}
			break
		}
	}
	for pkg, m := range b.pkgs {
		r := Result{Model: m, Stage: StageGo, Count: 1}
		if f := failed[pkg]; len(f) > 0 {
			r.Status, r.Detail = Failed, strings.Join(f, "; ")
		}
		res.Set(r)
	}
	if len(failed) == 0 {
		os.RemoveAll(filepath.Join(b.cfg.Work, "go"))
	}
}

// linesNaming returns the lines of out that name the package folder
// (path/pkg/ or the "# .../pkg" header of its errors), at most 8.
func linesNaming(out, pkg string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, pkg+"/") || strings.HasSuffix(l, pkg) {
			lines = append(lines, strings.TrimSpace(l))
			if len(lines) == 8 {
				break
			}
		}
	}
	return lines
}

// pyResult is a line of reach_python.py.
type pyResult struct {
	Model  string `json:"model"`
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// runPython generates each model's typed Python package and imports it
// (testing/reach/reach_python.py, through libsmithycurl.so), in chunks
// of models run cfg.Jobs processes at once; mypy --strict on cfg.Mypy
// of them.
func runPython(ctx context.Context, cfg Config, models []Model, res *Results) {
	const chunk = 25
	var chunks [][]Model
	for i := 0; i < len(models); i += chunk {
		chunks = append(chunks, models[i:min(i+chunk, len(models))])
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < cfg.Jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				runPythonChunk(ctx, cfg, i, chunks[i], i == 0, res)
			}
		}()
	}
	for i := range chunks {
		work <- i
	}
	close(work)
	wg.Wait()
}

func runPythonChunk(ctx context.Context, cfg Config, i int, ms []Model, first bool, res *Results) {
	out := filepath.Join(cfg.Work, "python", fmt.Sprint(i))
	args := []string{"-B", filepath.Join(cfg.Root, "testing", "reach", "reach_python.py"), "--out", out}
	if first && cfg.Mypy > 0 {
		args = append(args, "--mypy", fmt.Sprint(cfg.Mypy))
	}
	for _, m := range ms {
		args = append(args, m.Path)
	}
	cmd := exec.CommandContext(ctx, cfg.Python, args...)
	cmd.Env = append(os.Environ(), "SMITHYCURL_LIBRARY="+cfg.Lib, "PYTHONPATH="+filepath.Join(cfg.Root, "bindings", "python"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	seen := map[string]bool{}
	for _, line := range strings.Split(string(stdout), "\n") {
		var p pyResult
		if json.Unmarshal([]byte(line), &p) != nil || p.Model == "" {
			continue
		}
		seen[p.Model] = true
		r := Result{Model: p.Model, Stage: StagePython, Count: 1, Detail: p.Detail}
		switch p.Status {
		case "passed":
		case "skipped":
			r.Status, r.Count = Skipped, 0
		default:
			r.Status = Failed
		}
		res.Set(r)
	}
	for _, m := range ms {
		if !seen[m.Name] {
			res.Set(Result{Model: m.Name, Stage: StagePython, Status: Failed, Detail: fmt.Sprintf("reach_python.py: %v: %s", err, firstLines(stderr.String(), 6))})
		}
	}
	if err == nil {
		os.RemoveAll(out)
	}
}

// runDifferential runs the request or response differential against
// botocore (testing/botocore, as make test runs it) over the models'
// cases from geninputs, cfg.K per operation, and counts a case per model:
// failed when one of its cases failed, skipped when none ran (with
// botocore's reasons).
func runDifferential(ctx context.Context, cfg Config, stage string, models []Model, res *Results) {
	fail := func(detail string) {
		for _, m := range models {
			res.Set(Result{Model: m.Name, Stage: stage, Status: Failed, Detail: detail})
		}
	}
	dir := filepath.Join(cfg.Work, stage)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err.Error())
		return
	}
	var globs []string
	for _, m := range models {
		globs = append(globs, "../aws-models/"+m.Name+".json")
	}
	gen := []string{"run", "./testing/cmd/geninputs", "-seed", fmt.Sprint(cfg.Seed), "-n", fmt.Sprint(cfg.K), "-models", strings.Join(globs, ",")}
	script := "diff_botocore.py"
	if stage == StageResponses {
		gen = append(gen, "-responses")
		script = "diff_botocore_responses.py"
	}
	cases := filepath.Join(dir, "cases.jsonl")
	f, err := os.Create(cases)
	if err != nil {
		fail(err.Error())
		return
	}
	cmd := exec.CommandContext(ctx, "go", gen...)
	cmd.Dir, cmd.Stdout = cfg.Root, f
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	f.Close()
	if err != nil {
		fail(fmt.Sprintf("geninputs: %v: %s", err, firstLines(stderr.String(), 4)))
		return
	}
	perModel := filepath.Join(dir, "per-model.json")
	log := filepath.Join(dir, "output.txt")
	cmd = exec.CommandContext(ctx, cfg.Python, "-B", filepath.Join(cfg.Root, "testing", "botocore", script),
		"--shared", cfg.Shared, "--per-model", perModel, "--shrink", "40", cases)
	if stage == StageResponses {
		cmd.Args = append(cmd.Args[:len(cmd.Args)-3], cases) // no --shrink
	}
	cmd.Env = append(os.Environ(), "SMITHYCURL_LIBRARY="+cfg.Lib, "PYTHONPATH="+filepath.Join(cfg.Root, "bindings", "python"))
	out, _ := cmd.CombinedOutput()
	os.WriteFile(log, out, 0o644)
	data, err := os.ReadFile(perModel)
	var counts map[string]map[string]int
	if err == nil {
		err = json.Unmarshal(data, &counts)
	}
	if err != nil {
		fail(fmt.Sprintf("%s wrote no per-model counts (%v): %s", script, err, lastLines(string(out), 6)))
		return
	}
	fails := failLines(string(out))
	for _, m := range models {
		c := counts["../aws-models/"+m.Name+".json"]
		r := Result{Model: m.Name, Stage: stage, Count: c["passed"] + c["failed"]}
		notRun := map[string]int{}
		for k, n := range c {
			if reason, ok := strings.CutPrefix(k, "skipped: "); ok {
				notRun[skipClass(reason)] += n
			}
		}
		switch {
		case c["failed"] > 0:
			r.Status = Failed
			r.Detail = fmt.Sprintf("%d of %d cases (%s): %s", c["failed"], r.Count, log, strings.Join(fails[m.Name], " | "))
		case r.Count == 0:
			var reasons []string
			for reason := range notRun {
				reasons = append(reasons, reason)
			}
			sort.Strings(reasons)
			r.Status, r.Detail = Skipped, "no case ran"
			if len(reasons) > 0 {
				r.Detail = strings.Join(reasons, "; ")
			}
		default:
			r.NotRun = notRun
		}
		res.Set(r)
	}
}

// skipClass is a skip reason without the service's own name, so that the
// models skipped for one reason are listed together.
func skipClass(reason string) string {
	switch {
	case strings.HasPrefix(reason, "botocore has no service"):
		return "botocore has no service of this sdkId (its data predates it)"
	case strings.HasPrefix(reason, "operation not in botocore's model"):
		return "operation not in botocore's model (newer than its data)"
	}
	return reason
}

// failLines are the differential's FAIL lines and their detail, by model
// name.
func failLines(out string) map[string][]string {
	byModel := map[string][]string{}
	var cur string
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "FAIL ../aws-models/"); ok {
			name, op, _ := strings.Cut(rest, " ")
			cur = strings.TrimSuffix(name, ".json")
			byModel[cur] = append(byModel[cur], op)
			continue
		}
		if cur != "" && strings.HasPrefix(l, "  ") && len(byModel[cur]) < 12 {
			byModel[cur] = append(byModel[cur], strings.TrimSpace(l))
		} else if !strings.HasPrefix(l, "  ") {
			cur = ""
		}
	}
	return byModel
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[:min(n, len(lines))], " | ")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}
