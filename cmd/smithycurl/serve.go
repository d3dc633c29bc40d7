package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/smithycurl/smithycurl/serve"
)

// serveCmd runs the mock server of a service (package serve) until SIGINT
// or SIGTERM. The first line of stdout is the URL it listens on; the log,
// a line per request, goes to stderr.
func serveCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("serve", "serve --model PATH... [--service ID] [--listen 127.0.0.1:PORT] [--fixtures FILE] [--seed N] [--quiet] [--proxy URL [--record FILE] | --replay FILE]", stderr)
	var mf modelFlags
	mf.register(fs)
	listen := fs.String("listen", "127.0.0.1:0", "address to listen on (port 0: any free port; a missing host is 127.0.0.1)")
	var fixtures multiFlag
	fs.Var(&fixtures, "fixtures", "JSON file of fixed answers per operation (repeatable; see the README's Mock server)")
	seed := fs.Int64("seed", 0, "seed of the random outputs: the same request gets the same output")
	maxBody := fs.Int64("max-body", serve.DefaultMaxBody, "largest request body in bytes (larger: 413)")
	proxy := fs.String("proxy", "", "forward every request as it is to the endpoint at URL and answer with its response")
	record := fs.String("record", "", "with --proxy: write each exchange to FILE (JSON Lines; no credentials, @sensitive inputs as digests)")
	var replays multiFlag
	fs.Var(&replays, "replay", "answer from a recording --record wrote, matching operation and input (repeatable)")
	quiet := fs.Bool("quiet", false, "log only the requests refused or failed, not a line per request")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	mf.models = append(mf.models, fs.Args()...)
	m, svc, ok := mf.load(ctx, stderr)
	if !ok {
		return exitUsage
	}
	logOpts := &slog.HandlerOptions{}
	if *quiet {
		logOpts.Level = slog.LevelWarn
	}
	opts := []serve.Option{serve.WithSeed(*seed), serve.WithMaxBody(*maxBody),
		serve.WithLogger(slog.New(slog.NewTextHandler(stderr, logOpts)))}
	for _, f := range fixtures {
		opts = append(opts, serve.WithFixturesFile(f))
	}
	for _, f := range replays {
		opts = append(opts, serve.WithReplayFile(f))
	}
	if *proxy != "" {
		opts = append(opts, serve.WithProxy(*proxy))
	}
	if *record != "" {
		opts = append(opts, serve.WithRecordFile(*record))
	}
	h, err := serve.New(m, svc, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	addr := *listen
	if host, port, err := net.SplitHostPort(addr); err == nil && host == "" {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: serve: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "http://%s\n", ln.Addr())

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	running := h.Serve(ln)
	select {
	case <-running.Failed():
		fmt.Fprintf(stderr, "smithycurl: serve: %v\n", running.Stop())
		return exitTransport
	case <-ctx.Done():
	}
	// Requests under way finish (up to 5 s); new ones are refused.
	if err := running.Stop(); err != nil {
		fmt.Fprintf(stderr, "smithycurl: serve: stopping: %v\n", err)
	}
	return 0
}
