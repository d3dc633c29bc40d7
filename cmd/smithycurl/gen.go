package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/smithycurl/smithycurl/codegen/c"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

const genUsage = `Usage:
  smithycurl gen c      --model PATH... [--service ID] -o DIR [--prefix NAME]   NAME.h and NAME.c
  smithycurl gen go     --model PATH... [--service ID] --package NAME -o DIR    a Go package
  smithycurl gen python --model PATH... [--service ID] [--async] -o DIR         a typed package (--async: and its asyncio client)`

// gen writes a typed client for a language: `smithycurl gen c --model
// PATH... [--service ID] -o DIR [--prefix NAME]` writes DIR/NAME.h and
// DIR/NAME.c; `gen go` a Go package (gengo.go); `gen python` a typed
// Python package (genpython.go).
func gen(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	langs := map[string]func(context.Context, []string, io.Writer, io.Writer) int{"c": genC, "go": genGo, "python": genPython}
	if len(args) == 0 || langs[args[0]] == nil {
		fmt.Fprintln(stderr, genUsage)
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return 0
		}
		return exitUsage
	}
	return langs[args[0]](ctx, args[1:], stdout, stderr)
}

// speaks reports whether smithycurl speaks a protocol of svc, and says why
// not on stderr: a client of a service without one would only fail when
// called.
func speaks(m *model.Model, svc *model.Service, lang string, stderr io.Writer) bool {
	if _, err := protocol.New(m, svc); err != nil {
		fmt.Fprintf(stderr, "smithycurl: gen %s: %v: a client could not send a call\n", lang, err)
		return false
	}
	return true
}

func genC(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("gen c", "gen c --model PATH... [--service ID] -o DIR [--prefix NAME]", stderr)
	var mf modelFlags
	mf.register(fs)
	dir := fs.String("o", "", "directory to write NAME.h and NAME.c into (created when missing)")
	prefix := fs.String("prefix", "", "prefix of every generated name and the files' name (default: the service name in snake_case)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	mf.models = append(mf.models, fs.Args()...)
	if *dir == "" {
		fmt.Fprintln(stderr, "smithycurl gen c: -o DIR is required")
		return exitUsage
	}
	m, svc, ok := mf.load(ctx, stderr)
	if !ok || !speaks(m, svc, "c", stderr) {
		return exitUsage
	}
	name := *prefix
	if name == "" {
		name = cgen.Snake(svc.Shape.ID.Name())
	}
	h, c, err := cgen.Generate(m, svc, cgen.Options{Prefix: name, Name: name})
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	for _, f := range []struct {
		path string
		data []byte
	}{{filepath.Join(*dir, name+".h"), h}, {filepath.Join(*dir, name+".c"), c}} {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			fmt.Fprintf(stderr, "smithycurl: %v\n", err)
			return exitUsage
		}
		fmt.Fprintln(stdout, f.path)
	}
	return 0
}
