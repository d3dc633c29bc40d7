package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/smithycurl/smithycurl/client"
)

// callStream calls an operation whose output is an event stream and
// prints JSON lines as they arrive: first the initial output (the output
// without its stream member), then one event per line in the union's
// document form ({"MemberName": {...}}). An exception event or an error
// message ends the stream like a service error of Call.
func callStream(ctx context.Context, c *client.Client, op string, input []byte, raw bool, stdout, stderr io.Writer) int {
	if raw {
		fmt.Fprintln(stderr, "smithycurl: --raw does not apply to an event stream")
		return exitUsage
	}
	s, err := c.CallStream(ctx, op, input)
	if err != nil {
		return callFailed(err, false, stdout, stderr)
	}
	defer s.Close()
	if err := writeLine(stdout, s.Initial()); err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitTransport
	}
	for ev, err := range s.Events() {
		if err != nil {
			return callFailed(err, false, stdout, stderr)
		}
		if err := writeLine(stdout, ev); err != nil {
			fmt.Fprintf(stderr, "smithycurl: %v\n", err)
			return exitTransport
		}
	}
	return 0
}

// writeLine writes data as one compact JSON line and flushes it when w
// can be flushed.
func writeLine(w io.Writer, data []byte) error {
	var buf bytes.Buffer
	if err := json.Compact(&buf, data); err != nil {
		return fmt.Errorf("writing an event: %w", err)
	}
	buf.WriteByte('\n')
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("writing an event: %w", err)
	}
	if f, ok := w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}
