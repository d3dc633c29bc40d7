package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/client"
)

// presign prints a presigned URL of an operation: the URL alone on one
// line; with --json, the URL, method, signed headers and expiry as JSON.
// What else the URL's sender must do (a method other than GET, signed
// headers) is said on stderr, so that stdout stays the URL.
func presign(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("presign", "presign --model PATH... [--service ID] (--endpoint URL | --region REGION) [--expires SECONDS] OPERATION [--input JSON|@FILE]\n"+
		"(prints a URL signed with SigV4 in its query string, which anyone may send without credentials until it expires;\n"+
		"-H headers are signed too; the method and signed headers the sender must use go to stderr, or all of it to stdout with --json)", stderr)
	var f callFlags
	f.register(fs)
	expires := fs.Int64("expires", 3600, "how long the URL is valid, in `SECONDS` (1 to 604800, 7 days)")
	signedAt := fs.String("signing-time", "", "sign as of this time (RFC 3339, e.g. 2024-01-02T03:04:05Z) instead of now")
	asJSON := fs.Bool("json", false, `print {"url", "method", "headers": {NAME: VALUE}, "expires": RFC 3339} instead of the URL alone`)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "smithycurl: give exactly one OPERATION (see 'smithycurl ops')")
		return exitUsage
	}
	if *expires < 1 || *expires > 604800 {
		fmt.Fprintf(stderr, "smithycurl: --expires %d: give 1 to 604800 seconds (7 days)\n", *expires)
		return exitUsage
	}
	var opts []client.CallOption
	if *signedAt != "" {
		t, err := time.Parse(time.RFC3339, *signedAt)
		if err != nil {
			fmt.Fprintf(stderr, "smithycurl: --signing-time %q: want RFC 3339, e.g. 2024-01-02T03:04:05Z\n", *signedAt)
			return exitUsage
		}
		opts = append(opts, client.WithSigningTime(t))
	}
	for _, h := range f.headers {
		name, value, _ := strings.Cut(h, ":") // checked by newClient
		opts = append(opts, client.WithCallHeader(strings.TrimSpace(name), strings.TrimSpace(value)))
	}
	c, _, svc, ok := f.newClient(ctx, stderr)
	if !ok {
		return exitUsage
	}
	defer c.Close()
	op, input, ok := f.operationInput(svc, pos[0], false, stderr)
	if !ok {
		return exitUsage
	}
	p, err := c.Presign(ctx, op.Name, input, time.Duration(*expires)*time.Second, opts...)
	if err != nil {
		return callFailed(err, true, stdout, stderr)
	}
	if *asJSON {
		out, _ := p.MarshalJSON()
		fmt.Fprintf(stdout, "%s\n", out)
		return 0
	}
	fmt.Fprintln(stdout, p.URL)
	if p.Method != "GET" || len(p.SignedHeader) > 0 {
		names := make([]string, 0, len(p.SignedHeader))
		for name := range p.SignedHeader {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Fprintf(stderr, "smithycurl: send it with method %s", p.Method)
		for _, name := range names {
			fmt.Fprintf(stderr, " and header '%s: %s'", name, strings.Join(p.SignedHeader[name], ","))
		}
		fmt.Fprintln(stderr)
	}
	return 0
}
