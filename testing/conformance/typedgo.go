package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/codegen/go"
	"github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// TypedCall runs operation of service through its generated Go client,
// made with endpoint and opts: input (document form) is unmarshalled into
// the typed input, and the typed output is marshalled back to the document
// form. Errors are the generated client's.
type TypedCall func(ctx context.Context, service model.ShapeID, operation, endpoint string,
	opts []client.Option, input []byte) ([]byte, error)

// typedSuites are the protocols whose cases run through generated Go clients.
var typedSuites = []struct {
	name  string
	proto model.ShapeID
}{
	{"restJson1", protocol.RestJSON1},
	{"simpleRestJson", protocol.SimpleRestJSON},
	{"awsJson1_0", protocol.AWSJSON1_0},
	{"awsJson1_1", protocol.AWSJSON1_1},
	{"rpcv2Cbor", protocol.RPCv2CBOR},
	{"rpcv2Json", protocol.RPCv2JSON},
	{"restXml", protocol.RestXML},
	{"awsQuery", protocol.AWSQuery},
	{"ec2Query", protocol.EC2Query},
}

// GenerateTypedGo writes into dir, a folder of this module whose import
// path is importPath, a generated Go package per service of the
// conformance models that speaks one of the typed suites' protocols, and a
// main package that runs RunTypedGo over them (go run importPath SHARED).
func GenerateTypedGo(shared, dir, importPath string) error {
	m, err := loadProtocolModel(shared)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	var imports, cases []string
	// add writes the package of svc (of m) and its cases, variant naming
	// the protocol the service was rewritten to, if any.
	add := func(m *model.Model, svc *model.Service, pkg, variant string) error {
		files, err := gogen.Generate(m, svc, pkg)
		if err != nil {
			return fmt.Errorf("%s: %w", svc.Shape.ID, err)
		}
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			return err
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, pkg, f.Name), f.Data, 0o644); err != nil {
				return err
			}
		}
		imports = append(imports, fmt.Sprintf("%q", importPath+"/"+pkg))
		for _, n := range gogen.Names(m, svc) {
			cases = append(cases, typedCallCase(string(svc.Shape.ID)+variant, pkg, n))
		}
		return nil
	}
	for i, sid := range m.Services() {
		s, _ := m.Shape(sid)
		uses := false
		for _, ts := range typedSuites {
			uses = uses || s.HasTrait(ts.proto)
		}
		if !uses {
			continue
		}
		svc, err := m.Service(sid)
		if err != nil {
			return err
		}
		pkg := fmt.Sprintf("svc%d%s", i, strings.ToLower(sid.Name()))
		if err := add(m, svc, pkg, ""); err != nil {
			return err
		}
	}
	// alloy borrows restJson1 cases: they run on a copy of the restJson1
	// services that speaks simpleRestJson instead.
	for i, sid := range m.Services() {
		s, _ := m.Shape(sid)
		if !s.HasTrait(protocol.RestJSON1) {
			continue
		}
		vm, err := asSimpleRestJSON(m, sid)
		if err != nil {
			return fmt.Errorf("%s as simpleRestJson: %w", sid, err)
		}
		svc, err := vm.Service(sid)
		if err != nil {
			return err
		}
		pkg := fmt.Sprintf("svc%d%ssimple", i, strings.ToLower(sid.Name()))
		if err := add(vm, svc, pkg, simpleVariant); err != nil {
			return err
		}
	}
	src := fmt.Sprintf(typedMain, strings.Join(imports, "\n\t"), strings.Join(cases, ""))
	return os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
}

// simpleVariant marks the service id of a restJson1 service's copy that
// speaks simpleRestJson, in TypedCall.
const simpleVariant = "@simpleRestJson"

// asSimpleRestJSON returns m with service sid's restJson1 trait replaced
// by alloy's simpleRestJson, through the JSON AST.
func asSimpleRestJSON(m *model.Model, sid model.ShapeID) (*model.Model, error) {
	var ast map[string]any
	if err := json.Unmarshal(m.MarshalAST(), &ast); err != nil {
		return nil, err
	}
	shapes, _ := ast["shapes"].(map[string]any)
	svc, _ := shapes[string(sid)].(map[string]any)
	traits, _ := svc["traits"].(map[string]any)
	if traits == nil {
		return nil, fmt.Errorf("no traits")
	}
	delete(traits, string(protocol.RestJSON1))
	traits[string(protocol.SimpleRestJSON)] = map[string]any{}
	data, err := json.Marshal(ast)
	if err != nil {
		return nil, err
	}
	l := model.NewLoader()
	l.AddSource("simple.json", data)
	vm, _, err := l.Load(context.Background())
	return vm, err
}

func typedCallCase(sid, pkg string, n gogen.OperationNames) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\tcase %q:\n", sid+"/"+n.Operation)
	fmt.Fprintf(&b, "\t\tc, err := %s.New(endpoint, opts...)\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\tdefer c.Close()\n", pkg)
	args := "ctx"
	if n.Input != "" {
		fmt.Fprintf(&b, "\t\tvar in %s.%s\n", pkg, n.Input)
		b.WriteString("\t\tif err := typed.JSON.Unmarshal(input, &in); err != nil {\n\t\t\treturn nil, fmt.Errorf(\"typed input: %w\", err)\n\t\t}\n")
		args += ", &in"
	}
	if n.Output == "" {
		fmt.Fprintf(&b, "\t\treturn []byte(\"{}\"), c.%s(%s)\n", n.Method, args)
		return b.String()
	}
	fmt.Fprintf(&b, "\t\tout, err := c.%s(%s)\n\t\tif err != nil {\n\t\t\treturn nil, err\n\t\t}\n\t\treturn typed.JSON.Marshal(out)\n", n.Method, args)
	return b.String()
}

const typedMain = `// Code generated by the conformance runner (GenerateTypedGo). DO NOT EDIT.

// Command conformance-go runs the protocol test cases through generated Go clients.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/client/typed"
	"github.com/smithycurl/smithycurl/testing/conformance"
	"github.com/smithycurl/smithycurl/model"

	%s
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: conformance-go SHARED")
		os.Exit(2)
	}
	if conformance.Print(os.Stdout, conformance.RunTypedGo(os.Args[1], call)) {
		os.Exit(1)
	}
}

func call(ctx context.Context, service model.ShapeID, operation, endpoint string, opts []client.Option, input []byte) ([]byte, error) {
	switch string(service) + "/" + operation {
%s	}
	return nil, fmt.Errorf("no generated client for %%s/%%s", service, operation)
}
`

// Print writes each result's failures and notes, then their summaries,
// and reports whether any case failed.
func Print(w io.Writer, results []Result) bool {
	failed := false
	for _, r := range results {
		failed = failed || r.Failed > 0
		for _, f := range r.Failures {
			fmt.Fprintln(w, "FAIL", f)
		}
		for _, n := range r.Notes {
			fmt.Fprintln(w, n)
		}
	}
	for _, r := range results {
		fmt.Fprintln(w, r.Summary())
	}
	return failed
}

// RunTypedGo runs the client request and response cases of restJson1,
// simpleRestJson (alloy's own cases, and the restJson1 cases it borrows on
// a copy of the restJson1 service that speaks simpleRestJson), awsJson1_0
// and awsJson1_1 through call: requests are captured by a transport that
// answers with the case's response.
func RunTypedGo(shared string, call TypedCall) []Result {
	var results []Result
	for _, ts := range typedSuites {
		r := Result{Suite: ts.name + " (typed Go)"}
		m, err := loadProtocolModel(shared)
		if err != nil {
			r.fail("load", "%v", err)
			results = append(results, r)
			continue
		}
		cases, err := collectCases(m, ts.proto)
		if err != nil {
			r.fail("load", "%v", err)
			results = append(results, r)
			continue
		}
		if ts.proto == protocol.SimpleRestJSON {
			rj, err := collectCases(m, protocol.RestJSON1)
			if err != nil {
				r.fail("load", "%v", err)
			}
			rules := borrowRules(m)
			for _, c := range rj {
				if rules.borrows(c, "client") {
					c.id = "restJson1/" + c.id
					c.svc += simpleVariant
					cases = append(cases, c)
				}
			}
		}
		excl := readExclusions(ts.name + ".tsv")
		typedExcl := readExclusions("typed-go.tsv")
		for _, c := range cases {
			_, skip := excl[c.key()]
			_, skipTyped := typedExcl[ts.name+"/"+c.key()]
			r.record(ts.name+"/"+c.key(), skip || skipTyped, guard(caseTimeout, func() error { return typedCase(m, call, c) }))
		}
		results = append(results, r)
	}
	return append(results, typedPizza(call))
}

// cannedTransport keeps the request and answers with a canned response.
type cannedTransport struct {
	resp *wire.Response
	got  *transport.Request
}

func (t *cannedTransport) Do(_ context.Context, req *transport.Request) (*wire.Response, error) {
	r := *req
	r.Body = bytes.Clone(req.Body)
	t.got = &r
	return t.resp, nil
}

func typedCase(m *model.Model, call TypedCall, c protocolCase) error {
	host := field(c.tc, "host")
	if host == "" {
		host = "example.com"
	}
	t := &cannedTransport{resp: cannedResponse(c)}
	opts := []client.Option{client.WithTransport(t), client.WithoutRetries(),
		client.WithCodecOptions(protocol.WithIdempotencyTokens(func() string { return fixedToken })),
		client.WithAWSCredentials(client.AWSCredentials{AccessKeyID: "AKID", SecretAccessKey: "SECRET", Region: "us-east-1"})}
	in := typedInput(m, c)
	out, err := call(context.Background(), c.svc, c.op.Name, "https://"+host, opts, []byte(in))
	if c.kind == "request" {
		if t.got == nil {
			return fmt.Errorf("nothing sent: %v (input %s)", err, in)
		}
		return compareRequest(c, sentRequestOf(t.got))
	}
	o := typedOutcome{out: out, err: err}
	var me typed.ModeledError
	if errors.As(err, &me) {
		o.errShape, o.errCode = me.Meta().Shape, me.Meta().Code
		if o.errMembers, err = typed.JSON.Marshal(me); err != nil {
			return fmt.Errorf("marshal error members: %v", err)
		}
	}
	if err := checkTypedResponse(m, c, o, t.resp.Body); err != nil {
		return fmt.Errorf("%w (input %s)", err, in)
	}
	return nil
}

// cannedResponse is what the server of a typed case answers: the case's
// response for response cases, an empty 200 for request cases.
func cannedResponse(c protocolCase) *wire.Response {
	resp := &wire.Response{Status: 200, Header: wire.Header{}, Body: []byte("{}")}
	if c.kind == "request" {
		return resp
	}
	if v, ok := c.tc.Get("code"); ok {
		n, _ := v.Int64()
		resp.Status = int(n)
	}
	if v, ok := c.tc.Get("headers"); ok {
		for i := 0; i < v.Len(); i++ {
			k, val := v.Entry(i)
			resp.Header[k] = append(resp.Header[k], val.Str())
		}
	}
	resp.Body = caseBody(c.tc)
	return resp
}

// typedInput is the input (document form) a typed case calls with: the
// params of a request case, any valid input for a response case (the canned
// response is what counts). Typed inputs hold timestamps as instants, so
// the params go in with RFC 3339 timestamps (the epoch-number input form
// has no typed value of its own).
func typedInput(m *model.Model, c protocolCase) string {
	if c.kind == "request" {
		params, _ := c.tc.Get("params")
		if v := docValue(m, c.op.Input.ID, params, true); !v.IsNull() {
			return v.JSON()
		}
		return "{}"
	}
	return docValue(m, c.op.Input.ID, describe.Example(m, c.op), true).JSON()
}

// typedOutcome is what a call through a generated client gave back.
type typedOutcome struct {
	out        []byte        // the output, document form
	errShape   model.ShapeID // the modeled error; "" when none
	errCode    string        // the error code the service named
	errMembers []byte        // the modeled error's members, document form
	err        error         // the call's error
}

// checkTypedResponse compares the outcome of a response case with the
// output or modeled error the case expects; body is the response body.
func checkTypedResponse(m *model.Model, c protocolCase, o typedOutcome, body []byte) error {
	params, _ := c.tc.Get("params")
	if c.errShape != nil {
		if o.errShape == "" {
			return fmt.Errorf("want error %s, got output %s, err %v", c.errShape.ID, o.out, o.err)
		}
		if o.errShape != c.errShape.ID {
			return fmt.Errorf("error %s, want %s", o.errShape, c.errShape.ID)
		}
		want := docValue(m, c.errShape.ID, params, true)
		if d := jsonDiff(o.errMembers, []byte(orEmptyObject(want))); d != "" {
			return fmt.Errorf("error members: %s", d)
		}
		if vp, ok := c.tc.Get("vendorParams"); ok {
			if code := field(vp, "code"); code != "" && o.errCode != code {
				return fmt.Errorf("error code %q, want %q", o.errCode, code)
			}
		}
		return nil
	}
	if o.err != nil {
		return fmt.Errorf("call: %v", o.err)
	}
	want := docValue(m, c.op.Output.ID, params, true)
	want = emptyBlobPayload(m, c.op.Output, want, body)
	if d := jsonDiff(o.out, []byte(orEmptyObject(want))); d != "" {
		return fmt.Errorf("output: %s", d)
	}
	return nil
}

// sentRequestOf splits a transport request's URL into host, path and query.
func sentRequestOf(req *transport.Request) sentRequest {
	rest := req.URL
	if _, after, ok := strings.Cut(rest, "://"); ok {
		rest = after
	}
	host, pathQuery, _ := strings.Cut(rest, "/")
	path, query, _ := strings.Cut("/"+pathQuery, "?")
	return sentRequest{method: req.Method, path: path, query: query, header: req.Header, body: req.Body, host: host}
}
