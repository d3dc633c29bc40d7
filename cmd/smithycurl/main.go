// Command smithycurl calls Smithy services and works with their models.
//
//	smithycurl call     --model PATH... --endpoint URL OPERATION [--input JSON|@FILE]
//	smithycurl wait     --model PATH... --endpoint URL WAITER [--input JSON] [--max-wait DUR]
//	smithycurl presign  --model PATH... --region REGION [--expires SECONDS] OPERATION [--input JSON]
//	smithycurl s3 cp    --model S3MODEL --region REGION SRC DST
//	smithycurl credentials [--profile NAME] [--model PATH... [--service ID]] [--json]
//	smithycurl ops      --model PATH... [--service ID]
//	smithycurl serve    --model PATH... [--service ID] [--listen ADDR] [--fixtures FILE] [--seed N]
//	smithycurl describe --model PATH... OPERATION
//	smithycurl example  --model PATH... OPERATION
//	smithycurl validate FILE...
//	smithycurl ast      FILE...
//	smithycurl compile  -o FILE PATH...
//	smithycurl completion bash|zsh
//	smithycurl version
//
// Exit codes: 0 success; 1 the service answered with an error; 2 usage,
// model or input error; 3 transport error or timeout; wait: 4 the waiter
// reached its failure state, 5 it timed out (--max-wait); 6 the response
// could not be decoded.
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
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
)

const usage = `smithycurl calls Smithy services and works with their models.

Usage:
  smithycurl call     --model PATH --endpoint URL OPERATION [--input JSON|@FILE]
                      (--region REGION instead of --endpoint for AWS models)
  smithycurl wait     --model PATH --endpoint URL WAITER [--input JSON] [--max-wait 5m]
                      poll until the waiter (smithy.waiters#waitable) succeeds
  smithycurl presign  --model PATH --region REGION [--expires SECONDS] OPERATION [--input JSON]
                                                    print a presigned URL (SigV4 in the query)
  smithycurl s3 cp    --model S3MODEL --region REGION SRC DST
                                                    copy a file to s3://BUCKET/KEY or back, in
                                                    parallel parts (multipart above 8 MiB)
  smithycurl endpoint --model PATH --region REGION [OPERATION [--input JSON]]
                                                    print the endpoint the rules resolve
  smithycurl credentials [--profile NAME] [--model PATH [--service ID]] [--json]
                                                    show where the AWS credentials, region and
                                                    endpoint come from (secrets masked)
  smithycurl ops      --model PATH [--service ID]   list operations and their HTTP routes
  smithycurl serve    --model PATH [--service ID] [--listen 127.0.0.1:PORT] [--fixtures FILE] [--seed N]
                                                    run a mock server of the service (prints its URL)
  smithycurl describe --model PATH OPERATION        show input, output and errors (--json)
  smithycurl example  --model PATH OPERATION        print an input JSON to fill in
  smithycurl validate PATH...                       load and check a model
  smithycurl ast      PATH...                       print the model as a JSON AST
  smithycurl compile  -o FILE PATH...               write the model as a snapshot that
                                                    loads fast (--model FILE, C, Python)
  smithycurl gen c|go|python --model PATH -o DIR    write a typed client
  smithycurl completion bash|zsh                    print a shell completion script
  smithycurl version                                print the version (also --version)

PATH is a .smithy or .json file, a directory of them, or a smithy-build.json;
--model repeats. Model warnings are printed with -v (--verbose), errors always.
Exit codes: 0 ok, 1 service error, 2 usage/model/input error, 3 transport error or timeout;
wait: 4 the waiter reached its failure state, 5 it did not succeed within --max-wait;
6 the response could not be decoded.
Run 'smithycurl COMMAND -h' for a command's options.
`

// Exit codes scripts can rely on (wait's 4 and 5 are in wait.go).
const (
	exitServiceError = 1
	exitUsage        = 2
	exitTransport    = 3
	exitDecode       = 6
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		fmt.Fprintf(stdout, "smithycurl %s\n", transport.Version)
		return 0
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	cmds := map[string]func(context.Context, []string, io.Writer, io.Writer) int{
		"call": call, "wait": wait, "endpoint": endpointCmd, "ops": ops, "describe": describe, "example": example,
		"validate": validate, "ast": ast, "compile": compile, "completion": completion, "gen": gen,
		"credentials": credentialsCmd, "presign": presign, "s3": s3Cmd, "serve": serveCmd,
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

// verboseFlag registers -v and --verbose on fs.
func verboseFlag(fs *flag.FlagSet, verbose *bool) {
	fs.BoolVar(verbose, "v", false, "also print the model's warnings (errors are always printed)")
	fs.BoolVar(verbose, "verbose", false, "same as -v")
}

// loadModel loads paths and prints every error, and with verbose every
// warning, as file:line:col.
func loadModel(ctx context.Context, paths []string, verbose bool, stderr io.Writer) (*model.Model, bool) {
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
		if e.Severity >= model.SeverityDanger || (verbose && e.Severity == model.SeverityWarning) {
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

// modelFlags are the flags of the commands that work on one service.
type modelFlags struct {
	models  multiFlag
	service string
	verbose bool
}

func (mf *modelFlags) register(fs *flag.FlagSet) {
	fs.Var(&mf.models, "model", "model file or directory (repeatable)")
	fs.StringVar(&mf.service, "service", "", "service shape id (may be left out when the model has one service)")
	verboseFlag(fs, &mf.verbose)
}

// load loads the model and picks the service.
func (mf *modelFlags) load(ctx context.Context, stderr io.Writer) (*model.Model, *model.Service, bool) {
	m, ok := loadModel(ctx, mf.models, mf.verbose, stderr)
	if !ok {
		return nil, nil, false
	}
	id := model.ShapeID(mf.service)
	if id == "" {
		services := m.Services()
		if len(services) != 1 {
			names := make([]string, len(services))
			for i, s := range services {
				names[i] = string(s)
			}
			fmt.Fprintf(stderr, "smithycurl: the model has %d services; choose one with --service: %s\n", len(services), strings.Join(names, ", "))
			return nil, nil, false
		}
		id = services[0]
	}
	svc, err := m.Service(id)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, nil, false
	}
	return m, svc, true
}

func ops(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ops", "ops --model PATH... [--service ID] [--names]", stderr)
	var mf modelFlags
	mf.register(fs)
	names := fs.Bool("names", false, "print only the operation names, one per line")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	mf.models = append(mf.models, fs.Args()...)
	m, ok := loadModel(ctx, mf.models, mf.verbose, stderr)
	if !ok {
		return exitUsage
	}
	ids := m.Services()
	if mf.service != "" {
		ids = []model.ShapeID{model.ShapeID(mf.service)}
	}
	for _, id := range ids {
		svc, err := m.Service(id)
		if err != nil {
			fmt.Fprintf(stderr, "smithycurl: %v\n", err)
			return exitUsage
		}
		if !*names {
			fmt.Fprintf(stdout, "%s (%d operations)\n", id, len(svc.Operations))
		}
		for _, op := range svc.Operations {
			if *names {
				fmt.Fprintln(stdout, op.Name)
			} else {
				fmt.Fprintf(stdout, "  %-28s %s\n", op.Name, protocol.Route(svc, op))
			}
		}
	}
	return 0
}

func validate(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("validate", "validate [-v] PATH...", stderr)
	var verbose bool
	verboseFlag(fs, &verbose)
	if fs.Parse(args) != nil {
		return exitUsage
	}
	m, ok := loadModel(ctx, fs.Args(), verbose, stderr)
	if !ok {
		return exitUsage
	}
	if !validEndpointRules(m, stderr) {
		return exitUsage
	}
	fmt.Fprintf(stdout, "ok: %d shapes, %d services\n", m.NumShapes(), len(m.Services()))
	return 0
}

func ast(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("ast", "ast [-v] PATH...", stderr)
	var verbose bool
	verboseFlag(fs, &verbose)
	if fs.Parse(args) != nil {
		return exitUsage
	}
	m, ok := loadModel(ctx, fs.Args(), verbose, stderr)
	if !ok {
		return exitUsage
	}
	stdout.Write(m.MarshalAST())
	return 0
}
