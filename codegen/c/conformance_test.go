package cgen_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/conformance"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestConformanceTypedC runs the official protocol test cases of
// conformance.TypedCCases (one or more per shape kind) through generated C
// clients: conformance.GenerateTypedC writes the clients and a driver per
// service, compiled here with -std=c99 -Wall -Wextra -Werror -pedantic
// against build/libsmithycurl.so; each call goes through libcurl to a
// server on 127.0.0.1 that records the request and answers with the case's
// response. With SMITHYCURL_TYPED_C=all, every client case of those
// protocols runs (a few minutes).
func TestConformanceTypedC(t *testing.T) {
	all := os.Getenv("SMITHYCURL_TYPED_C") == "all"
	lib := libDir(t)
	needCC(t)
	shared := shareddata.Path(t)
	dir := t.TempDir()
	svcs, err := conformance.GenerateTypedC(shared, dir, all)
	if err != nil {
		t.Fatal(err)
	}
	r := root(t)
	bins := map[model.ShapeID]string{}
	var wg sync.WaitGroup
	errs := make([]error, len(svcs))
	for i, s := range svcs {
		bin := filepath.Join(s.Dir, "driver")
		bins[s.ID] = bin
		args := append(append([]string{}, strictFlags...), "-O0", "-I"+filepath.Join(r, "include"), "-I"+s.Dir,
			"-o", bin, filepath.Join(s.Dir, "main.c"), "-L"+lib, "-lsmithycurl", "-lm", "-Wl,-rpath,"+lib)
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if out, err := exec.Command("cc", args...).CombinedOutput(); err != nil {
				errs[i] = &ccError{err, out}
			}
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	modelPath := filepath.Join(dir, "model.json")
	run := func(ctx context.Context, svc model.ShapeID, endpoint, op string, input []byte) ([]byte, error) {
		cmd := exec.CommandContext(ctx, bins[svc], modelPath, endpoint, op)
		cmd.Stdin = bytes.NewReader(input)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return append(out, stderr.Bytes()...), err
		}
		return out, nil
	}
	res := conformance.RunTypedC(shared, run, all)
	for _, f := range res.Failures {
		t.Error(f)
	}
	t.Log(res.Summary())
	if res.Passed == 0 {
		t.Error("no case passed")
	}
}

type ccError struct {
	err error
	out []byte
}

func (e *ccError) Error() string { return "cc: " + e.err.Error() + "\n" + string(e.out) }
