package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// Exit codes of wait, after those every command shares.
const (
	exitWaiterFailure = 4
	exitWaiterTimeout = 5
)

// defaultMaxWait is wait's --max-wait when none is given.
const defaultMaxWait = 5 * time.Minute

func wait(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("wait", "wait --model PATH... [--service ID] (--endpoint URL | --region REGION) WAITER [--input JSON|@FILE] [--max-wait DUR]\n"+
		"(polls the waiter's operation until its smithy.waiters#waitable acceptors say success, then prints that output;\n"+
		"exit 4 when a failure acceptor matched, 5 when --max-wait ran out)", stderr)
	var f callFlags
	f.register(fs)
	var maxWait, minDelay, maxDelay time.Duration
	fs.DurationVar(&maxWait, "max-wait", defaultMaxWait, "the longest the waiter may take, e.g. 10m")
	fs.DurationVar(&minDelay, "min-delay", 0, "replace the waiter's minDelay (default: the model's, else 2s)")
	fs.DurationVar(&maxDelay, "max-delay", 0, "replace the waiter's maxDelay (default: the model's, else 120s)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"max-wait", maxWait}, {"min-delay", minDelay}, {"max-delay", maxDelay}, {"timeout", f.timeout}} {
		if isSet(fs, d.name) && d.v <= 0 {
			fmt.Fprintf(stderr, "smithycurl: --%s %v: give a positive duration, e.g. 30s\n", d.name, d.v)
			return exitUsage
		}
	}
	c, m, _, ok := f.newClient(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer c.Close()
	if len(pos) != 1 {
		names := c.Waiters()
		if len(names) == 0 {
			fmt.Fprintln(stderr, "smithycurl: give exactly one WAITER (this service has no waiters)")
		} else {
			fmt.Fprintf(stderr, "smithycurl: give exactly one WAITER: %s\n", strings.Join(names, ", "))
		}
		return exitUsage
	}
	w, err := c.Waiter(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	input, err := readInput(f.input, len(w.Operation.Input.Members) > 0)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	opts := []client.WaitOption{client.WithWaitDelays(minDelay, maxDelay)}
	if f.trace {
		fmt.Fprintf(stderr, "* input %s\n", client.RedactSensitive(m, w.Operation.Input, input))
		opts = append(opts, client.WithWaitObserver(func(a client.WaitAttempt) {
			matched := "no acceptor matched"
			if a.Acceptor >= 0 {
				matched = fmt.Sprintf("acceptor %d matched", a.Acceptor+1)
			}
			if a.State == "retry" {
				fmt.Fprintf(stderr, "* waiter %s: attempt %d: retry (%s), next attempt in %s\n", w.Name, a.Number, matched, a.Delay.Round(time.Millisecond))
			} else {
				fmt.Fprintf(stderr, "* waiter %s: attempt %d: %s (%s)\n", w.Name, a.Number, a.State, matched)
			}
		}))
	}
	out, err := c.Wait(ctx, w.Name, input, maxWait, opts...)
	if err == nil {
		if out == nil {
			out = []byte("{}") // success on an error (a "not exists" waiter)
		}
		writeJSON(stdout, out)
		return 0
	}
	return callFailed(err, false, stdout, stderr)
}
