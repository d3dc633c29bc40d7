package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/codegen/c"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/wire"
)

// TypedCCases are the protocol test cases (suite/kind:id) that run through
// generated C clients: at least one per shape kind. The official suites
// have no bigInteger or bigDecimal case for these protocols (only rpcv2
// has them); bindings/c/typed/kinds_typed.c covers those.
var TypedCCases = []string{
	// nested structures (recursive)
	"restJson1/request:RestJsonRecursiveShapes",
	"restJson1/response:RestJsonRecursiveShapes",
	// lists
	"restJson1/request:RestJsonLists",
	"restJson1/response:RestJsonLists",
	// sparse lists
	"restJson1/request:RestJsonSparseListsSerializeNull",
	"restJson1/response:RestJsonSparseListsSerializeNull",
	// maps
	"restJson1/request:RestJsonJsonMaps",
	"restJson1/response:RestJsonJsonMaps",
	"restJson1/response:RestJsonDeserializesDenseSetMap",
	// sparse maps
	"restJson1/request:RestJsonSerializesSparseNullMapValues",
	"restJson1/response:RestJsonDeserializesSparseNullMapValues",
	// unions
	"restJson1/request:RestJsonSerializeStructureUnionValue",
	"restJson1/request:RestJsonSerializeListUnionValue",
	"restJson1/response:RestJsonDeserializeNestedUnionValue",
	"restJson1/response:RestJsonDeserializeMapUnionValue",
	// enums and intEnums
	"restJson1/request:RestJsonJsonEnums",
	"restJson1/response:RestJsonJsonEnums",
	"restJson1/request:RestJsonJsonIntEnums",
	"restJson1/response:RestJsonJsonIntEnums",
	"awsJson1_1/request:AwsJson11Enums",
	// timestamps in each format
	"restJson1/request:RestJsonJsonTimestamps",
	"restJson1/request:RestJsonJsonTimestampsWithDateTimeFormat",
	"restJson1/request:RestJsonJsonTimestampsWithEpochSecondsFormat",
	"restJson1/request:RestJsonJsonTimestampsWithHttpDateFormat",
	"restJson1/response:RestJsonJsonTimestamps",
	"restJson1/response:RestJsonJsonTimestampsWithDateTimeFormat",
	"restJson1/response:RestJsonJsonTimestampsWithEpochSecondsFormat",
	"restJson1/response:RestJsonJsonTimestampsWithHttpDateFormat",
	// blobs
	"restJson1/request:RestJsonJsonBlobs",
	"restJson1/response:RestJsonJsonBlobs",
	// documents
	"restJson1/request:DocumentInputWithList",
	"restJson1/response:DocumentOutput",
	"restJson1/request:DocumentTypeAsMapValueInput",
	// defaults
	"restJson1/request:RestJsonClientPopulatesDefaultValuesInInput",
	"restJson1/response:RestJsonClientPopulatesDefaultsValuesWhenMissingInResponse",
	// modeled errors
	"restJson1/response:RestJsonComplexErrorWithNoMessage",
	"restJson1/response:RestJsonInvalidGreetingError",
	"awsJson1_0/response:AwsJson10ComplexError",
}

// typedCSuites are the protocols of TypedCCases.
var typedCSuites = []struct {
	name  string
	proto model.ShapeID
}{
	{"restJson1", protocol.RestJSON1},
	{"awsJson1_0", protocol.AWSJSON1_0},
	{"awsJson1_1", protocol.AWSJSON1_1},
}

// TypedCService is the generated C client of one service and its driver,
// a C program to compile from Dir/main.c alone (it includes the client's
// source): run as `driver MODEL ENDPOINT OPERATION` with the input
// (document form) on stdin, it calls the operation through the typed
// client and prints one line: "OUTPUT <json>", "ERROR <shape> <code>
// <json>" (a modeled error's members, written from its typed struct; code
// "-" when none), or "FAIL <reason>".
type TypedCService struct {
	ID  model.ShapeID
	Dir string
}

// GenerateTypedC writes under dir the model of the protocol tests as a
// JSON AST (model.json, the MODEL argument of the drivers) and, per
// service of TypedCCases (with all: of every case of the suites), a folder
// with its generated C client and driver.
func GenerateTypedC(shared, dir string, all bool) ([]TypedCService, error) {
	m, err := loadProtocolModel(shared)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "model.json"), m.MarshalAST(), 0o644); err != nil {
		return nil, err
	}
	cases, _, _, err := typedCCases(m, all)
	if err != nil {
		return nil, err
	}
	var out []TypedCService
	seen := map[model.ShapeID]bool{}
	for _, c := range cases {
		if seen[c.svc] {
			continue
		}
		seen[c.svc] = true
		svc, err := m.Service(c.svc)
		if err != nil {
			return nil, err
		}
		sdir := filepath.Join(dir, fmt.Sprintf("svc%d", len(out)))
		if err := os.MkdirAll(sdir, 0o755); err != nil {
			return nil, err
		}
		opts := cgen.Options{Prefix: "pt", Name: "client"}
		h, src, err := cgen.Generate(m, svc, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.svc, err)
		}
		ops, errs, err := cgen.Names(m, svc, opts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.svc, err)
		}
		files := map[string][]byte{"client.h": h, "client.c": src, "main.c": []byte(typedCDriver(c.svc, ops, errs))}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(sdir, name), data, 0o644); err != nil {
				return nil, err
			}
		}
		out = append(out, TypedCService{ID: c.svc, Dir: sdir})
	}
	return out, nil
}

// typedCCases returns the cases of TypedCCases, in its order; with all,
// every client case of the suites instead (less the exclusions of the
// codec-level and typed Go runs and exclusions/typed-c.tsv), keyed
// suite/kind:id.
func typedCCases(m *model.Model, all bool) ([]protocolCase, []string, int, error) {
	byKey := map[string]protocolCase{}
	var allKeys []string
	skipped := 0
	typedExcl := readExclusions("typed-go.tsv")
	cExcl := readExclusions("typed-c.tsv")
	for _, ts := range typedCSuites {
		cases, err := collectCases(m, ts.proto)
		if err != nil {
			return nil, nil, 0, err
		}
		excl := readExclusions(ts.name + ".tsv")
		for _, c := range cases {
			k := ts.name + "/" + c.key()
			byKey[k] = c
			_, skip := excl[c.key()]
			_, skipTyped := typedExcl[k]
			_, skipC := cExcl[k]
			if !skip && !skipTyped && !skipC {
				allKeys = append(allKeys, k)
			} else {
				skipped++
			}
		}
	}
	keys := TypedCCases
	if all {
		keys = allKeys
	} else {
		skipped = 0
	}
	out := make([]protocolCase, 0, len(keys))
	for _, k := range keys {
		c, ok := byKey[k]
		if !ok {
			return nil, nil, 0, fmt.Errorf("typed C case %s not found", k)
		}
		out = append(out, c)
	}
	return out, keys, skipped, nil
}

// TypedCDriver runs the driver of service (see TypedCService) with
// endpoint, operation and input, and returns what it printed.
type TypedCDriver func(ctx context.Context, service model.ShapeID, endpoint, operation string, input []byte) ([]byte, error)

// RunTypedC runs TypedCCases (with all: every client case of restJson1,
// awsJson1_0 and awsJson1_1 but the excluded ones) through the drivers
// GenerateTypedC wrote with the same all: each call goes
// through libcurl to a server on 127.0.0.1 that records the request and
// answers with the case's response; requests and outputs are compared as
// RunTypedGo compares them.
func RunTypedC(shared string, run TypedCDriver, all bool) Result {
	r := Result{Suite: "protocol tests (typed C)"}
	if all {
		r.Suite = "protocol tests, every case (typed C)"
	}
	m, err := loadProtocolModel(shared)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	cases, keys, skipped, err := typedCCases(m, all)
	if err != nil {
		r.fail("load", "%v", err)
		return r
	}
	r.Skipped = skipped
	for i, c := range cases {
		err := guard(caseTimeout, func() error { return typedCCase(m, run, c) })
		if err != nil {
			r.fail(keys[i], "%v", err)
			continue
		}
		r.Passed++
	}
	return r
}

func typedCCase(m *model.Model, run TypedCDriver, c protocolCase) error {
	resp := cannedResponse(c)
	var (
		mu  sync.Mutex
		got *sentRequest
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		path, query, _ := strings.Cut(req.RequestURI, "?")
		h := wire.Header(req.Header.Clone())
		mu.Lock()
		got = &sentRequest{method: req.Method, path: path, query: query, header: h, body: body, host: req.Host}
		mu.Unlock()
		// The case's header names as written (not canonicalized), and no
		// Date header of the server's own.
		w.Header()["Date"] = nil
		for k, vs := range resp.Header {
			w.Header()[k] = append(w.Header()[k], vs...)
		}
		w.WriteHeader(resp.Status)
		_, _ = w.Write(resp.Body)
	}))
	defer srv.Close()
	endpoint := srv.URL
	if _, path, ok := strings.Cut(field(c.tc, "host"), "/"); ok {
		endpoint += "/" + path // the endpoint's path (HostWithPath cases)
	}
	in := typedInput(m, c)
	printed, err := run(context.Background(), c.svc, endpoint, c.op.Name, []byte(in))
	if err != nil {
		return fmt.Errorf("driver: %v: %s (input %s)", err, bytes.TrimSpace(printed), in)
	}
	mu.Lock()
	sent := got
	mu.Unlock()
	if c.kind == "request" {
		if sent == nil {
			return fmt.Errorf("nothing sent: %s (input %s)", bytes.TrimSpace(printed), in)
		}
		return compareRequest(c, *sent)
	}
	o, err := parseTypedCOutcome(printed)
	if err != nil {
		return err
	}
	if o.out != nil {
		if o.out, err = withCDefaults(m, c.op.Output.ID, o.out); err != nil {
			return err
		}
	}
	if c.errShape != nil && o.errMembers != nil {
		if o.errMembers, err = withCDefaults(m, c.errShape.ID, o.errMembers); err != nil {
			return err
		}
	}
	if err := checkTypedResponse(m, c, o, resp.Body); err != nil {
		return fmt.Errorf("%w (input %s)", err, in)
	}
	return nil
}

// parseTypedCOutcome reads the line a driver printed.
func parseTypedCOutcome(printed []byte) (typedOutcome, error) {
	line, _, _ := strings.Cut(string(printed), "\n")
	verb, rest, _ := strings.Cut(line, " ")
	switch verb {
	case "OUTPUT":
		return typedOutcome{out: []byte(rest)}, nil
	case "ERROR":
		f := strings.SplitN(rest, " ", 3)
		if len(f) != 3 {
			return typedOutcome{}, fmt.Errorf("driver printed %q", line)
		}
		code := f[1]
		if code == "-" {
			code = ""
		}
		return typedOutcome{errShape: model.ShapeID(f[0]), errCode: code, errMembers: []byte(f[2]),
			err: fmt.Errorf("modeled error %s", f[0])}, nil
	case "FAIL":
		return typedOutcome{err: fmt.Errorf("%s", rest)}, nil
	}
	return typedOutcome{}, fmt.Errorf("driver printed %q", line)
}

// withCDefaults adds to out (the document form of a value of shape id
// written by a generated C client) the members it leaves out because they
// hold their default: scalar members with a default that are neither
// required nor @clientOptional have no presence flag in C, and the writer
// omits them when they equal the default, as the input path must.
func withCDefaults(m *model.Model, id model.ShapeID, out []byte) ([]byte, error) {
	var v any
	if err := decodeJSON(out, &v); err != nil {
		return nil, fmt.Errorf("invalid JSON %q: %w", out, err)
	}
	addCDefaults(m, id, v)
	return json.Marshal(v)
}

func addCDefaults(m *model.Model, id model.ShapeID, v any) {
	s, ok := m.Shape(id)
	if !ok || v == nil {
		return
	}
	switch s.Type {
	case model.ListType, model.SetType:
		items, _ := v.([]any)
		if mem, ok := s.Member("member"); ok {
			for _, it := range items {
				addCDefaults(m, mem.Target, it)
			}
		}
	case model.MapType:
		obj, _ := v.(map[string]any)
		if mem, ok := s.Member("value"); ok {
			for _, it := range obj {
				addCDefaults(m, mem.Target, it)
			}
		}
	case model.UnionType, model.StructureType:
		obj, _ := v.(map[string]any)
		if obj == nil {
			return
		}
		for _, mem := range s.Members {
			if it, ok := obj[mem.Name()]; ok {
				addCDefaults(m, mem.Target, it)
				continue
			}
			d, ok := mem.Traits.Get(model.TraitDefault)
			if s.Type == model.UnionType || !ok || d.IsNull() || mem.Traits.Has(model.TraitRequired) ||
				mem.Traits.Has(model.TraitClientOptional) {
				continue
			}
			t, ok := m.Shape(mem.Target)
			if !ok || !cScalar(t.Type) {
				continue
			}
			var dv any
			if decodeJSON([]byte(docValue(m, mem.Target, d, true).JSON()), &dv) == nil {
				obj[mem.Name()] = dv
			}
		}
	}
}

// cScalar reports whether generated C holds a value of type t inline,
// without a NULL of its own.
func cScalar(t model.ShapeType) bool {
	switch t {
	case model.BooleanType, model.ByteType, model.ShortType, model.IntegerType, model.LongType,
		model.FloatType, model.DoubleType, model.TimestampType, model.EnumType, model.IntEnumType:
		return true
	}
	return false
}
