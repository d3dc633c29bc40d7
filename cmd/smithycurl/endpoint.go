package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
)

// endpointCmd prints the endpoint the service's rules resolve for a
// region (and an operation with its input): URL, headers and properties.
func endpointCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("endpoint", "endpoint --model PATH... [--service ID] [--region REGION] [--endpoint URL] [--fips] [--dual-stack] [--endpoint-param NAME=VALUE] [OPERATION [--input JSON|@FILE]]", stderr)
	var mf modelFlags
	var ef endpointFlags
	var region, endpoint, input string
	mf.register(fs)
	ef.register(fs)
	fs.StringVar(&region, "region", "", "AWS region (default: $AWS_REGION, $AWS_DEFAULT_REGION, the profile's region)")
	fs.StringVar(&endpoint, "endpoint", "", "custom endpoint, given to the rules as SDK::Endpoint")
	fs.StringVar(&input, "input", "", "the operation's input JSON (its context parameters), or @FILE")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) > 1 {
		fmt.Fprintln(stderr, "smithycurl: give at most one OPERATION")
		return exitUsage
	}
	m, svc, ok := mf.load(ctx, stderr)
	if !ok {
		return exitUsage
	}
	if !endpoints.HasRules(svc.Shape) {
		fmt.Fprintf(stderr, "smithycurl: service %s has no endpoint rules (smithy.rules#endpointRuleSet)\n", svc.Shape.ID)
		return exitUsage
	}
	if !ef.haveRegion(m, svc, endpoint, region, stderr) {
		return exitUsage
	}
	opts, err := ef.options()
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	if region != "" {
		opts = append(opts, client.WithRegion(region))
	}
	c, err := client.New(m, svc.Shape.ID, endpoint, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	defer c.Close()
	opName := ""
	if len(pos) == 1 {
		opName = pos[0]
	} else if len(svc.Operations) > 0 {
		opName = svc.Operations[0].Name // any operation: only its bindings differ
		if input != "" {
			fmt.Fprintln(stderr, "smithycurl: --input needs an OPERATION")
			return exitUsage
		}
	}
	data, err := readInput(input, false)
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	ep, err := c.ResolveEndpoint(opName, data)
	if err != nil {
		var ce *client.Error
		if len(pos) == 0 && errors.As(err, &ce) {
			// The operation stood for any: the message does not name it.
			noOp := *ce
			noOp.Operation = ""
			err = &noOp
		}
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	var b model.ObjectBuilder
	b.Set("url", model.String(ep.URL))
	var hb model.ObjectBuilder
	names := make([]string, 0, len(ep.Headers))
	for k := range ep.Headers {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		vals := ep.Headers[k]
		items := make([]model.Node, len(vals))
		for i, v := range vals {
			items[i] = model.String(v)
		}
		hb.Set(k, model.Array(items...))
	}
	b.Set("headers", hb.Build())
	b.Set("properties", ep.Properties)
	writeJSON(stdout, []byte(b.Build().JSON()))
	return 0
}

// validEndpointRules compiles the endpoint rules of every service, as a
// client would, and prints each error at the service's location.
func validEndpointRules(m *model.Model, stderr io.Writer) bool {
	ok := true
	for _, id := range m.Services() {
		svc, err := m.Service(id)
		if err != nil {
			continue
		}
		if _, err := endpoints.ForService(m, svc); err != nil {
			fmt.Fprintf(stderr, "%s: error: %v [EndpointRules]\n", svc.Shape.Loc, err)
			ok = false
		}
	}
	return ok
}
