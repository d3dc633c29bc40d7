// Command smithycurl works with Smithy models and the services they describe.
//
//	smithycurl ops      --model PATH... [--service ID]   list services and operations
//	smithycurl validate FILE...                          check a model; errors as file:line:col
//	smithycurl ast      FILE...                          print the model as a JSON AST
//
// Exit codes: 0 success, 2 usage or model error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

const usage = `smithycurl works with Smithy models and the services they describe.

Usage:
  smithycurl ops      --model PATH... [--service ID]   list services and their operations
  smithycurl validate FILE...                          load and validate a model
  smithycurl ast      FILE...                          print the assembled model as a JSON AST

PATH and FILE are .smithy or .json files, or directories of them.
Run 'smithycurl COMMAND -h' for a command's options.
`

// exitUsage is the exit code for usage, model and input errors.
const exitUsage = 2

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	cmds := map[string]func(context.Context, []string, io.Writer, io.Writer) int{
		"ops": ops, "validate": validate, "ast": ast,
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "smithycurl: unknown command %q\n\n%s", args[0], usage)
		return exitUsage
	}
	return cmd(ctx, args[1:], stdout, stderr)
}

// multiFlag collects a repeated string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: smithycurl %s\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// loadModel loads paths and prints every error and warning as file:line:col.
func loadModel(ctx context.Context, paths []string, stderr io.Writer) (*model.Model, bool) {
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "smithycurl: no model given")
		return nil, false
	}
	l := model.NewLoader()
	for _, p := range paths {
		if err := l.AddPath(p); err != nil {
			fmt.Fprintf(stderr, "smithycurl: %v\n", err)
			return nil, false
		}
	}
	m, events, err := l.Load(ctx)
	for _, e := range events {
		if e.Severity >= model.SeverityWarning {
			fmt.Fprintln(stderr, e.String())
		}
	}
	var le *model.LoadError
	if errors.As(err, &le) {
		fmt.Fprintf(stderr, "smithycurl: the model has %d error(s)\n", len(le.Events))
		return nil, false
	} else if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, false
	}
	return m, true
}

func ops(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ops", "ops --model PATH... [--service ID]", stderr)
	var models multiFlag
	fs.Var(&models, "model", "model file or directory (repeatable)")
	service := fs.String("service", "", "only this service (shape id)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	models = append(models, fs.Args()...)
	m, ok := loadModel(ctx, models, stderr)
	if !ok {
		return exitUsage
	}
	ids := m.Services()
	if *service != "" {
		ids = []model.ShapeID{model.ShapeID(*service)}
	}
	for _, id := range ids {
		svc, err := m.Service(id)
		if err != nil {
			fmt.Fprintf(stderr, "smithycurl: %v\n", err)
			return exitUsage
		}
		fmt.Fprintf(stdout, "%s (%d operations)\n", id, len(svc.Operations))
		for _, op := range svc.Operations {
			fmt.Fprintf(stdout, "  %-28s %s\n", op.Name, httpRoute(op.Shape))
		}
	}
	return 0
}

// httpRoute returns "METHOD /uri" from an operation's @http trait, if any.
func httpRoute(op *model.Shape) string {
	h, ok := op.Trait("smithy.api#http")
	if !ok {
		return ""
	}
	method, _ := h.Get("method")
	uri, _ := h.Get("uri")
	return method.Str() + " " + uri.Str()
}

func validate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "validate FILE...", stderr)
	if fs.Parse(args) != nil {
		return exitUsage
	}
	m, ok := loadModel(ctx, fs.Args(), stderr)
	if !ok {
		return exitUsage
	}
	fmt.Fprintf(stdout, "ok: %d shapes, %d services\n", m.NumShapes(), len(m.Services()))
	return 0
}

func ast(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ast", "ast FILE...", stderr)
	if fs.Parse(args) != nil {
		return exitUsage
	}
	m, ok := loadModel(ctx, fs.Args(), stderr)
	if !ok {
		return exitUsage
	}
	stdout.Write(m.MarshalAST())
	return 0
}
