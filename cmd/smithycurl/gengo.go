package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/smithycurl/smithycurl/codegen/go"
)

// genGo runs `smithycurl gen go` (args after "gen go"): a typed Go client
// package for one service of the model, written to -o DIR.
func genGo(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen go", "gen go --model PATH... [--service ID] --package NAME -o DIR", stderr)
	var mf modelFlags
	mf.register(fs)
	pkg := fs.String("package", "", "Go package name of the generated client (required)")
	out := fs.String("o", "", "directory to write the package to (created when missing; required)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "smithycurl: gen go: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if *pkg == "" || *out == "" {
		fmt.Fprintln(stderr, "smithycurl: gen go: --package and -o are required")
		return exitUsage
	}
	m, svc, ok := mf.load(ctx, stderr)
	if !ok || !speaks(m, svc, "go", stderr) {
		return exitUsage
	}
	files, err := gogen.Generate(m, svc, *pkg)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: gen go: %v\n", err)
		return exitUsage
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(stderr, "smithycurl: gen go: %v\n", err)
		return exitUsage
	}
	for _, f := range files {
		path := filepath.Join(*out, f.Name)
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			fmt.Fprintf(stderr, "smithycurl: gen go: %v\n", err)
			return exitUsage
		}
	}
	fmt.Fprintf(stdout, "wrote package %s for %s to %s (%d files)\n", *pkg, svc.Shape.ID, *out, len(files))
	return 0
}
