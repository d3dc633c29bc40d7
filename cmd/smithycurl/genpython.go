package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// genPython writes a typed Python package: `smithycurl gen python --model
// PATH... [--service ID] [--async] -o DIR` runs the Python package's own
// generator (python3 -m smithycurl gen), so there is one Python generator;
// --async adds the asyncio client class. $PYTHON names the interpreter
// (default python3); it must import smithycurl.
func genPython(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen python", "gen python --model PATH... [--service ID] [--async] -o DIR", stderr)
	var mf modelFlags
	mf.register(fs)
	dir := fs.String("o", "", "the package folder to write (its name is the module's)")
	aio := fs.Bool("async", false, "also write the asyncio client class (NameAsyncClient, on smithycurl.aio)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	mf.models = append(mf.models, fs.Args()...)
	if *dir == "" || len(mf.models) == 0 {
		fmt.Fprintln(stderr, "smithycurl gen python: --model PATH and -o DIR are required")
		return exitUsage
	}
	python := os.Getenv("PYTHON")
	if python == "" {
		python = "python3"
	}
	argv := append([]string{"-m", "smithycurl", "gen"}, mf.models...)
	if mf.service != "" {
		argv = append(argv, "--service", mf.service)
	}
	if *aio {
		argv = append(argv, "--async")
	}
	argv = append(argv, "-o", *dir)
	cmd := exec.CommandContext(ctx, python, argv...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && canImportSmithycurl(ctx, python):
		return exitUsage // the generator said why on stderr
	case exit != nil:
		err = fmt.Errorf("%s cannot import smithycurl", python)
	}
	fmt.Fprintf(stderr, "smithycurl: gen python needs a Python 3.10+ with the smithycurl package "+
		"(in the smithycurl source tree: make lib && python3 -m pip install ./bindings/python, "+
		"or PYTHONPATH=bindings/python SMITHYCURL_LIBRARY=build/libsmithycurl.so; $PYTHON names the interpreter): %v\n", err)
	return exitUsage
}

// canImportSmithycurl tells whether python finds the smithycurl package
// (without importing it).
func canImportSmithycurl(ctx context.Context, python string) bool {
	return exec.CommandContext(ctx, python, "-c",
		"import importlib.util, sys; sys.exit(importlib.util.find_spec('smithycurl') is None)").Run() == nil
}
