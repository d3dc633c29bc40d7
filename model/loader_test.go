package model_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func loadSource(t *testing.T, name, src string) (*model.Model, []model.Event, error) {
	t.Helper()
	l := model.NewLoader()
	l.AddSource(name, []byte(src))
	return l.Load(context.Background())
}

func mustLoad(t *testing.T, name, src string) *model.Model {
	t.Helper()
	m, _, err := loadSource(t, name, src)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return m
}

func TestExampleModelServiceIndex(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "httpbin"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("smithycurl.examples.httpbin#HttpBin")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(svc.Operations); got != 9 {
		t.Fatalf("operations = %d, want 9", got)
	}
	op, err := svc.Operation("Anything")
	if err != nil {
		t.Fatal(err)
	}
	if op.Input.ID != "smithycurl.examples.httpbin#AnythingInput" || !op.Input.HasTrait("smithy.api#input") {
		t.Errorf("inline input = %s %v", op.Input.ID, op.Input.Traits)
	}
	// Output members come from the Echo mixin first, then the output's own.
	var names []string
	for _, mem := range op.Output.Members {
		names = append(names, mem.Name())
	}
	if got := strings.Join(names, ","); got != "args,headers,origin,url,method,json" {
		t.Errorf("output members = %s", got)
	}
	getIP, _ := svc.Operation("smithycurl.examples.httpbin#GetIp")
	if getIP == nil || getIP.Input.ID != "smithy.api#Unit" {
		t.Errorf("GetIp by full id: %+v", getIP)
	}
	status, _ := svc.Operation("Status")
	if len(status.Errors) != 1 || status.Errors[0].ID != "smithycurl.examples.httpbin#ServerFailure" {
		t.Errorf("Status errors = %v", status.Errors)
	}
	_, err = svc.Operation("Anythin")
	if err == nil || !strings.Contains(err.Error(), "did you mean Anything?") {
		t.Errorf("unknown operation error = %v", err)
	}
	// The protocol trait's namespace is not loaded: the trait stays, opaque.
	if v, ok := svc.Shape.Trait("alloy#simpleRestJson"); !ok || v.Kind() != model.ObjectNode {
		t.Errorf("opaque protocol trait = %v, %v", v, ok)
	}
	pw, _ := m.Member("smithycurl.examples.httpbin#BasicAuthInput$passwd")
	if _, ok := m.MemberTrait(pw, "smithy.api#sensitive"); !ok {
		t.Error("MemberTrait does not fall back to the target's @sensitive")
	}
}

func TestErrorsCarryFileLineColumn(t *testing.T) {
	_, _, err := loadSource(t, "bad.smithy", `$version: "2"
namespace a.b

structure Foo {
    bar: Missing
    baz: String = 12
}
`)
	var le *model.LoadError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want *LoadError", err)
	}
	if len(le.Events) != 2 {
		t.Fatalf("want every error at once, got %d: %v", len(le.Events), err)
	}
	for i, want := range []string{"bad.smithy:5:5:", "bad.smithy:6:5:"} {
		if got := le.Events[i].String(); !strings.HasPrefix(got, want) {
			t.Errorf("event %d = %q, want prefix %q", i, got, want)
		}
	}
	if !strings.Contains(err.Error(), "unresolved shape `a.b#Missing`") {
		t.Errorf("message does not say what: %v", err)
	}
}

func TestJSONASTErrorLocation(t *testing.T) {
	_, _, err := loadSource(t, "bad.json", "{\n  \"smithy\": \"2.0\",\n  \"shapes\": {\n    \"a.b#Foo\": {\"type\": \"structure\", \"members\": {\"x\": {\"target\": \"a.b#Nope\"}}}\n  }\n}\n")
	if err == nil || !strings.Contains(err.Error(), "bad.json:4:") {
		t.Fatalf("err = %v, want a bad.json:4: location", err)
	}
	_, _, err = loadSource(t, "broken.json", "{\"smithy\": \"2.0\",\n \"shapes\": {\"a\": }")
	if err == nil || !strings.Contains(err.Error(), "broken.json:2:") {
		t.Fatalf("err = %v, want a syntax error at broken.json:2", err)
	}
}

func TestTraitsFromUnloadedNamespacesStayOpaque(t *testing.T) {
	m := mustLoad(t, "x.smithy", `$version: "2"
namespace a.b

@alloy#simpleRestJson
@aws.api#service(sdkId: "X", arnNamespace: "x")
service S { operations: [Op] }

operation Op {}
`)
	s, _ := m.Shape("a.b#S")
	v, _ := s.Trait("aws.api#service")
	if sdk, _ := v.Get("sdkId"); sdk.Str() != "X" {
		t.Errorf("aws.api#service = %s", v.JSON())
	}
	// A trait that is missing from a namespace that is loaded is an error.
	_, _, err := loadSource(t, "y.smithy", "$version: \"2\"\nnamespace a.b\n@a.b#nope\nstring S\n")
	if err == nil || !strings.Contains(err.Error(), "Unable to resolve trait `a.b#nope`") {
		t.Errorf("err = %v", err)
	}
}

func TestMarshalASTRoundTrip(t *testing.T) {
	m, err := model.LoadPaths(context.Background(), filepath.Join("..", "examples", "httpbin"))
	if err != nil {
		t.Fatal(err)
	}
	ast := m.MarshalAST()
	back := mustLoad(t, "written.json", string(ast))
	if d := model.Diff(m, back); len(d) > 0 {
		t.Fatalf("round trip differs:\n%s", strings.Join(d, "\n"))
	}
	if !strings.Contains(string(ast), `"mixins": [`) {
		t.Error("mixins are not kept in the AST")
	}
}

func TestNodeEqualAndJSON(t *testing.T) {
	a, err := model.ParseJSONNode(`{"x": [1, 10e0, "x\u00e9\ud83d\ude00", null, true], "y": {"z": 1.5}}`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := model.ParseJSONNode(`{"y": {"z": 15e-1}, "x": [1.0, 10, "xé😀", null, true]}`)
	if !a.Equal(b) {
		t.Errorf("%s != %s", a.JSON(), b.JSON())
	}
	if got := a.JSON(); got != `{"x":[1,10e0,"xé😀",null,true],"y":{"z":1.5}}` {
		t.Errorf("JSON = %s", got)
	}
	if s, _ := model.ParseJSONNode(`"line one\nline \"two\"\t\/end"`); s.Str() != "line one\nline \"two\"\t/end" {
		t.Errorf("escapes: %q", s.Str())
	}
	big, _ := model.ParseJSONNode(`123456789012345678901234567890.000000000000000000001`)
	if big.Literal() != "123456789012345678901234567890.000000000000000000001" {
		t.Errorf("digits lost: %s", big.Literal())
	}
	for _, bad := range []string{`{"a" 1}`, `[1,]`, `01`, `"\x"`, `"abc`, `{"a":1}}`, strings.Repeat("[", 600) + strings.Repeat("]", 600), "\"\xff\""} {
		if _, err := model.ParseJSONNode(bad); err == nil {
			t.Errorf("ParseJSONNode(%.20q) accepted invalid JSON", bad)
		}
	}
}

func TestLoadPathErrors(t *testing.T) {
	if _, err := model.LoadPaths(context.Background(), "does-not-exist.smithy"); err == nil || !strings.Contains(err.Error(), "does-not-exist.smithy") {
		t.Errorf("err = %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := model.LoadPaths(ctx, filepath.Join("..", "examples")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled load: err = %v", err)
	}
}

func TestPreludeHasNoErrors(t *testing.T) {
	m, events, err := loadSource(t, "empty.smithy", "$version: \"2\"\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if e.Severity >= model.SeverityWarning {
			t.Errorf("prelude event: %s", e)
		}
	}
	for _, id := range []model.ShapeID{"smithy.api#String", "smithy.api#Unit", "smithy.api#http", "smithy.api#httpLabel",
		"smithy.api#required", "smithy.api#default", "smithy.api#timestampFormat", "smithy.api#PrimitiveInteger"} {
		if _, ok := m.Shape(id); !ok {
			t.Errorf("prelude lacks %s", id)
		}
	}
}

// sharedDir returns the shared test data; CI fails without it.
func sharedDir(t testing.TB) string {
	d := shareddata.Path(t)
	return d
}

func TestAWSModelIndex(t *testing.T) {
	shared := sharedDir(t)
	m, err := model.LoadPaths(context.Background(), filepath.Join(shared, "models", "aws", "dynamodb.json"))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service("com.amazonaws.dynamodb#DynamoDB_20120810")
	if err != nil {
		t.Fatal(err)
	}
	op, err := svc.Operation("GetItem")
	if err != nil {
		t.Fatal(err)
	}
	// Service errors are merged into every operation's errors.
	found := false
	for _, e := range op.Errors {
		found = found || e.ID == "com.amazonaws.dynamodb#ResourceNotFoundException"
	}
	if !found || len(svc.Operations) < 50 {
		t.Errorf("GetItem errors %d, operations %d", len(op.Errors), len(svc.Operations))
	}
}

// TestUnresolvedReferencesReportedTogether: an undefined `for` resource is
// reported as undefined, once, and every other reference to an undefined
// shape is reported in the same load, each with its location.
func TestUnresolvedReferencesReportedTogether(t *testing.T) {
	const src = `$version: "2"
namespace ex

service S {
    operations: [GetThing, MissingOp]
    resources: [MissingRes]
}

operation GetThing {
    input := for Thing {
        @required
        $id
    }
    output: MissingOut
    errors: [MissingErr]
}

structure Other for AlsoMissing {
    $name
    a: MissingTarget
}

@mixin
structure NotAResource {}

structure Wrong for NotAResource {}
`
	_, events, err := loadSource(t, "refs.smithy", src)
	if err == nil {
		t.Fatal("loaded without error")
	}
	want := map[string]string{
		"ex#Thing":         "refs.smithy:10:18",
		"ex#AlsoMissing":   "refs.smithy:18:21",
		"ex#MissingOp":     "refs.smithy:4:1",
		"ex#MissingRes":    "refs.smithy:4:1",
		"ex#MissingOut":    "refs.smithy:9:1",
		"ex#MissingErr":    "refs.smithy:9:1",
		"ex#MissingTarget": "refs.smithy:20:5",
	}
	var errs []string
	for _, e := range events {
		if e.Severity != model.SeverityError {
			continue
		}
		errs = append(errs, e.String())
		for id, loc := range want {
			if strings.Contains(e.Message, "unresolved") && strings.Contains(e.Message, "`"+id+"`") && e.Loc.String() == loc {
				delete(want, id)
			}
		}
	}
	all := strings.Join(errs, "\n")
	for id, loc := range want {
		t.Errorf("no error at %s saying %s is unresolved in:\n%s", loc, id, all)
	}
	if strings.Contains(all, "elided member") {
		t.Errorf("follow-on errors for the members of a missing `for` resource:\n%s", all)
	}
	if !strings.Contains(all, "refs.smithy:26:21: error: ex#Wrong: The target of the `for` production must be a resource shape, but found a structure shape: ex#NotAResource") {
		t.Errorf("no error for a `for` that names a structure:\n%s", all)
	}
	if len(errs) != 8 {
		t.Errorf("%d errors, want 8:\n%s", len(errs), all)
	}
}

// An elided member of a shape whose mixin failed was also reported as
// targeting an unresolved shape with an empty id: the mixin's failure is
// the one error.
func TestElidedMemberOfFailedMixin(t *testing.T) {
	_, events, err := loadSource(t, "mixins.smithy", `$version: "2"
namespace ex

@mixin
list NoMember {}

list Eliding with [NoMember] {
    $member
}
`)
	if err == nil {
		t.Fatal("loaded without error")
	}
	applied := false
	for _, e := range events {
		if strings.Contains(e.Message, "unresolved shape ``") {
			t.Errorf("event naming no shape: %s", e)
		}
		applied = applied || strings.Contains(e.Message, "Cannot apply mixin to ex#Eliding")
	}
	if !applied {
		t.Errorf("the mixin's failure is not reported: %v", events)
	}
}
