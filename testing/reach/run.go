package reach

import (
	"context"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// Config is one run.
type Config struct {
	Shared string   // the shared test data folder (models under aws-models/)
	Root   string   // the repository root (include/, the Go module, build/)
	Work   string   // a folder for generated clients (emptied first)
	Stages []string // the stages to run, of AllStages
	Models []string // model names (file names less .json); empty: all
	Sample int      // > 0: this many models, chosen by Seed
	Seed   int64
	Jobs   int // models in process at once, and compilers at once
	K      int // differential cases per operation
	Mypy   int // > 0: mypy --strict on this many generated Python packages
	Python string
	Lib    string // libsmithycurl.so, for the Python stages
	Log    io.Writer
}

// Model is one model file of aws-models/.
type Model struct {
	Name, Path string
	Size       int64
}

// ListModels returns the models of shared/aws-models, sorted by name.
func ListModels(shared string) ([]Model, error) {
	dir := filepath.Join(shared, "aws-models")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no AWS models (*.json) in %s (set SMITHYCURL_SHARED)", dir)
	}
	sort.Strings(files)
	out := make([]Model, 0, len(files))
	for _, f := range files {
		info, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("aws model: %w", err)
		}
		out = append(out, Model{strings.TrimSuffix(filepath.Base(f), ".json"), f, info.Size()})
	}
	return out, nil
}

// Select returns the models of cfg: those named, or a sample of n chosen
// by seed (the same seed, the same sample), or all.
func Select(all []Model, names []string, n int, seed int64) ([]Model, error) {
	if len(names) > 0 {
		by := map[string]Model{}
		for _, m := range all {
			by[m.Name] = m
		}
		var out []Model
		for _, n := range names {
			m, ok := by[strings.TrimSuffix(n, ".json")]
			if !ok {
				return nil, fmt.Errorf("no model %q in aws-models", n)
			}
			out = append(out, m)
		}
		return out, nil
	}
	if n <= 0 || n >= len(all) {
		return all, nil
	}
	idx := rand.New(rand.NewSource(seed)).Perm(len(all))[:n]
	sort.Ints(idx)
	out := make([]Model, n)
	for i, j := range idx {
		out[i] = all[j]
	}
	return out, nil
}

// DateSeed is the seed of a day (UTC), YYYYMMDD: make test's sample.
func DateSeed(t time.Time) int64 {
	y, m, d := t.UTC().Date()
	return int64(y*10000 + int(m)*100 + d)
}

// LoadFigures are the load stage's totals.
type LoadFigures struct {
	Bytes  int64
	Time   time.Duration // summed over the models, the model cache off
	Models int
	// The models' snapshots (model.MarshalSnapshot, what the model cache
	// keeps): their bytes and the time to read them back.
	SnapBytes int64
	SnapTime  time.Duration
}

// Run runs cfg's stages over its models into res and returns the load
// figures.
func Run(ctx context.Context, cfg Config, models []Model, res *Results) (LoadFigures, error) {
	want := map[string]bool{}
	for _, s := range cfg.Stages {
		want[s] = true
	}
	if cfg.Jobs <= 0 {
		cfg.Jobs = 2
	}
	if err := os.RemoveAll(cfg.Work); err != nil {
		return LoadFigures{}, fmt.Errorf("reach: empty %s: %w", cfg.Work, err)
	}
	var (
		figs   LoadFigures
		figsMu sync.Mutex
		cjobs  = make(chan cJob)
		cwg    sync.WaitGroup
		gopkgs = newGoBatch(cfg)
	)
	// The C compilers run beside the model workers, cfg.Jobs at once.
	for i := 0; i < cfg.Jobs; i++ {
		cwg.Add(1)
		go func() {
			defer cwg.Done()
			for j := range cjobs {
				t0 := time.Now()
				res.Set(compileC(ctx, cfg, j))
				res.AddTime(StageC, time.Since(t0))
			}
		}()
	}
	work := make(chan Model)
	var wg sync.WaitGroup
	for i := 0; i < cfg.Jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for mf := range work {
				t0 := time.Now()
				m, proto, r := loadModel(ctx, mf)
				d := time.Since(t0)
				res.Set(r)
				res.AddTime(StageLoad, d)
				if m == nil {
					continue
				}
				res.SetProtocol(mf.Name, proto)
				snap := m.MarshalSnapshot()
				t1 := time.Now()
				if _, err := model.UnmarshalSnapshot(mf.Name, snap); err != nil {
					res.Set(Result{Model: mf.Name, Stage: StageLoad, Status: Failed, Detail: fmt.Sprintf("its snapshot does not read back: %v", err)})
				}
				ds := time.Since(t1)
				figsMu.Lock()
				figs.Bytes += mf.Size
				figs.Time += d
				figs.Models++
				figs.SnapBytes += int64(len(snap))
				figs.SnapTime += ds
				figsMu.Unlock()
				inProcess(ctx, cfg, want, mf, m, res, cjobs, gopkgs)
			}
		}()
	}
	for _, m := range models {
		if ctx.Err() != nil {
			break
		}
		work <- m
	}
	close(work)
	wg.Wait()
	close(cjobs)
	cwg.Wait()
	// The Go build (one process, the go command's own parallelism) runs
	// beside the Python stages.
	var gowg sync.WaitGroup
	if want[StageGo] {
		gowg.Add(1)
		go func() {
			defer gowg.Done()
			t0 := time.Now()
			gopkgs.build(ctx, res)
			res.AddTime(StageGo, time.Since(t0))
		}()
	}
	defer gowg.Wait()
	if want[StagePython] {
		t0 := time.Now()
		runPython(ctx, cfg, models, res)
		res.AddTime(StagePython, time.Since(t0))
	}
	for _, s := range []string{StageRequests, StageResponses} {
		if want[s] {
			t0 := time.Now()
			runDifferential(ctx, cfg, s, models, res)
			res.AddTime(s, time.Since(t0))
		}
	}
	return figs, ctx.Err()
}

// inProcess runs the stages that need the loaded model: the endpoint
// tests and examples here, the generators (the C compile is queued on
// cjobs, the Go package added to the batch).
func inProcess(ctx context.Context, cfg Config, want map[string]bool, mf Model, m *model.Model, res *Results, cjobs chan<- cJob, gopkgs *goBatch) {
	timed := func(stage string, f func() Result) {
		if !want[stage] {
			return
		}
		t0 := time.Now()
		r := f()
		r.Model, r.Stage = mf.Name, stage
		res.Set(r)
		res.AddTime(stage, time.Since(t0))
	}
	timed(StageEndpoints, func() Result { return endpointTests(mf, m) })
	timed(StageExample, func() Result { return examples(ctx, m) })
	if want[StageC] {
		t0 := time.Now()
		j, r := generateC(cfg, mf, m)
		res.AddTime(StageC, time.Since(t0))
		if r != nil {
			res.Set(*r)
		} else {
			cjobs <- j
		}
	}
	if want[StageGo] {
		t0 := time.Now()
		if r := gopkgs.add(mf, m); r != nil {
			res.Set(*r)
		}
		res.AddTime(StageGo, time.Since(t0))
	}
}

// modelWarning is the one class of warning the load stage accepts: the
// model's own trait values have members the public trait definitions lack
// (aws.api#service serviceName, awsProductName; a waiter's description;
// @paginated maxResults); Smithy's validator warns on them the same way.
const modelWarning = "warnings the models carry themselves (a trait value member the trait's public definition lacks; Smithy warns too)"

// loadModel loads and validates a model file: it passes with no error and
// no warning (notes are fine) and one service.
func loadModel(ctx context.Context, mf Model) (*model.Model, string, Result) {
	r := Result{Model: mf.Name, Stage: StageLoad, Count: 1}
	l := model.NewLoader()
	l.SetCache(model.CacheOff) // the figures are of reading and validating
	if err := l.AddPath(mf.Path); err != nil {
		r.Status, r.Detail = Failed, err.Error()
		return nil, "", r
	}
	m, events, err := l.Load(ctx)
	if err != nil {
		r.Status, r.Detail = Failed, err.Error()
		return nil, "", r
	}
	var warnings []string
	for _, e := range events {
		switch {
		case e.Severity < model.SeverityWarning:
		case e.ID == "TraitValue" && strings.Contains(e.Message, "Invalid structure member"):
			if r.NotRun == nil {
				r.NotRun = map[string]int{}
			}
			r.NotRun[modelWarning]++
		default:
			warnings = append(warnings, e.String())
		}
	}
	if len(warnings) > 0 {
		r.Status = Failed
		r.Detail = fmt.Sprintf("%d warnings: %s", len(warnings), strings.Join(warnings, "; "))
	}
	if n := len(m.Services()); n != 1 {
		r.Status = Failed
		r.Detail = fmt.Sprintf("%d services, want 1", n)
		return nil, "", r
	}
	return m, protocolName(m), r
}
