// Command reach runs every AWS service model of the shared data
// ($SMITHYCURL_SHARED/aws-models, 402 services) through the stages of
// testing/reach: load and validate, the endpoint tests, the example inputs
// under validation, the C, Go and Python clients, and the request and
// response differentials against botocore. It prints a table per protocol
// and, last, "aws-models: N passed, N failed" (a case per model and
// stage). `make reach` runs it on every model; make test on -sample N
// models chosen by -seed (default: the date, printed).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/testing/reach"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func main() {
	os.Exit(run())
}

func run() int {
	sample := flag.Int("sample", 0, "run this many models, chosen by -seed (0: all)")
	seed := flag.Int64("seed", 0, "seed of the sample and of the differentials' inputs (0: today's date, YYYYMMDD UTC)")
	models := flag.String("models", "", "only these models (comma-separated file names less .json)")
	stages := flag.String("stages", strings.Join(reach.AllStages, ","), "the stages to run, comma-separated")
	jobs := flag.Int("j", 2, "models in process at once, and compilers at once")
	k := flag.Int("k", 1, "differential inputs (and outputs) per operation")
	mypy := flag.Int("mypy", 0, "run mypy --strict on this many generated Python packages")
	python := flag.String("python", "/usr/bin/python3", "a Python with botocore (and mypy for -mypy)")
	lib := flag.String("lib", "build/libsmithycurl.so", "libsmithycurl.so, for the Python stages")
	work := flag.String("work", "build/_reach", "the folder of the generated clients, inside the module (emptied first)")
	flag.Parse()

	shared, err := shareddata.Dir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "reach:", err)
		fmt.Println("aws-models: 0 passed, 1 failed")
		return 1
	}
	root, err := shareddata.Root()
	if err != nil {
		fmt.Fprintln(os.Stderr, "reach:", err)
		return 1
	}
	if *seed == 0 {
		*seed = reach.DateSeed(time.Now())
	}
	all, err := reach.ListModels(shared)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reach:", err)
		fmt.Println("aws-models: 0 passed, 1 failed")
		return 1
	}
	var names []string
	if *models != "" {
		names = strings.Split(*models, ",")
	}
	chosen, err := reach.Select(all, names, *sample, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reach:", err)
		return 2
	}
	var want []string
	for _, s := range strings.Split(*stages, ",") {
		if !contains(reach.AllStages, s) {
			fmt.Fprintf(os.Stderr, "reach: no stage %q (stages: %s)\n", s, strings.Join(reach.AllStages, ","))
			return 2
		}
		want = append(want, s)
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	cfg := reach.Config{Shared: shared, Root: root, Work: abs(*work), Stages: want, Seed: *seed,
		Jobs: *jobs, K: *k, Mypy: *mypy, Python: *python, Lib: abs(*lib)}
	fmt.Printf("reach: %d of %d models in %s, seed %d (stages %s)\n", len(chosen), len(all), filepath.Join(shared, "aws-models"), *seed, strings.Join(want, ","))
	if *sample > 0 {
		var ns []string
		for _, m := range chosen {
			ns = append(ns, m.Name)
		}
		fmt.Printf("reach: sample %s\n", strings.Join(ns, " "))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	res := reach.NewResults()
	figs, err := reach.Run(ctx, cfg, chosen, res)
	if err != nil {
		fmt.Fprintln(os.Stderr, "reach:", err)
	}
	if figs.Models > 0 {
		mb := float64(figs.Bytes) / 1e6
		fmt.Printf("load: %d models, %.1f MB of JSON AST in %.1f s of loading and validating (%.1f MB/s, one model at a time per job, the model cache off)\n",
			figs.Models, mb, figs.Time.Seconds(), mb/figs.Time.Seconds())
		smb := float64(figs.SnapBytes) / 1e6
		fmt.Printf("snapshots: %.1f MB (%.0f%% of the JSON), read back in %.1f s (%.1f MB/s of JSON)\n",
			smb, 100*smb/mb, figs.SnapTime.Seconds(), mb/figs.SnapTime.Seconds())
	}
	fmt.Printf("wall: %.0f s\n", time.Since(start).Seconds())
	failures := filepath.Join(cfg.Work, "failures.txt")
	if err := res.WriteFailures(failures); err != nil {
		fmt.Fprintln(os.Stderr, "reach:", err)
	} else {
		fmt.Printf("failures in full: %s\n", failures)
	}
	if res.Print(os.Stdout, want) > 0 || err != nil {
		return 1
	}
	return 0
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
