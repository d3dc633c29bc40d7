package describe_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// validating are the codec options that turn constraint validation on.
var validating = []protocol.Option{protocol.WithValidation()}

// TestExamplesPassValidation: for every operation of the AWS models of the
// shared test data and of examples/, Example's input passes the codec's
// validation, constraints included, as it is.
func TestExamplesPassValidation(t *testing.T) {
	paths := []string{"../examples/httpbin", "../examples/todo", "../codegen/testdata/gen"}
	aws, _ := filepath.Glob(filepath.Join(shareddata.Path(t, "models", "aws"), "*.json"))
	if len(aws) != 23 {
		t.Errorf("%d AWS models in the shared data, want 23", len(aws))
	}
	checked := 0
	for _, path := range append(paths, aws...) {
		m, err := model.LoadPaths(context.Background(), path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		for _, id := range m.Services() {
			svc, _ := m.Service(id)
			codec, err := protocol.New(m, svc, validating...)
			if err != nil {
				continue // a protocol smithycurl does not speak
			}
			for _, op := range svc.Operations {
				if streams(m, op) {
					continue // called through the streaming calls, not EncodeRequest alone
				}
				in := describe.Example(m, op).JSON()
				if _, err := codec.EncodeRequest(context.Background(), op, []byte(in)); err != nil && !unsatisfiable(err) {
					t.Errorf("%s %s: example %s\n  %v", filepath.Base(path), op.Name, clip(in), err)
				}
				checked++
			}
		}
	}
	t.Logf("%d operations", checked)
}

// TestValidationIsOn makes sure the codec options above validate: without
// this, the test above could pass without checking a constraint.
func TestValidationIsOn(t *testing.T) {
	l := model.NewLoader()
	l.AddSource("v.smithy", []byte(`$version: "2"
namespace v
@aws.protocols#awsJson1_0
service S { operations: [Op] }
operation Op { input := { @length(min: 3) name: String } }
`))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := m.Service("v#S")
	codec, err := protocol.New(m, svc, validating...)
	if err != nil {
		t.Fatal(err)
	}
	op, _ := svc.Operation("Op")
	if _, err := codec.EncodeRequest(context.Background(), op, []byte(`{"name": ""}`)); err == nil {
		t.Fatal("a @length(min: 3) violation passed: the codec options do not turn validation on")
	}
	if in := describe.Example(m, op).JSON(); in != `{"name":"string"}` {
		t.Errorf("example %s", in)
	}
}

func streams(m *model.Model, op *model.Operation) bool {
	for _, io := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range io.Members {
			if describe.Streaming(m, mem) != "" {
				return true
			}
		}
	}
	return false
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return strings.TrimSpace(s)
}

// unsatisfiable reports an error that only violations of patterns no value
// can match cause: a JavaScript regex literal kept with its slashes
// ("/^[\d]{12}$/", in a real AWS model) needs "/" before the start of text.
func unsatisfiable(err error) bool {
	for _, v := range strings.Split(err.Error(), "; ") {
		if !strings.Contains(v, "does not match the pattern /^") {
			return false
		}
	}
	return true
}

// TestExamplesMeetConstraints: Example's input meets the constraints of
// lists and maps of many kinds, with validation on: @length min (69 entries
// where it says 69, sparse lists too), @uniqueItems with @pattern, @range
// and enum elements, map keys with patterns. The model is made here, one
// operation per list or map shape.
func TestExamplesMeetConstraints(t *testing.T) {
	elems := []struct {
		name, def string
		distinct  int // how many different values the type has (0: many)
	}{
		{"Str", "string Str", 0},
		{"Lower", `@pattern("^[a-z]+$") string Lower`, 0},
		{"Code", `@pattern("^[A-Z]{2}-[0-9]{3}$") string Code`, 0},
		{"Arn", `@length(min: 20, max: 64) @pattern("^arn:aws:[a-z0-9-]+:[a-z0-9-]*:\\d{12}:[a-zA-Z0-9/_-]+$") string Arn`, 0},
		{"Short", `@length(min: 1, max: 2) @pattern("^[a-c]+$") string Short`, 12},
		{"Word", `@pattern("^(alpha|beta|gamma|delta|epsilon|zeta)$") string Word`, 6},
		{"Color", "enum Color { RED GREEN BLUE }", 3},
		{"Int", "@range(min: 1, max: 1000) integer Int", 0},
		{"Tiny", "@range(min: 120) byte Tiny", 8},
		{"Dbl", "@range(min: 0.5, max: 0.75) double Dbl", 0},
		{"When", "timestamp When", 0},
		{"Bin", "@length(min: 3, max: 8) blob Bin", 0},
		{"Flag", "boolean Flag", 2},
	}
	keys := map[string]int{"Str": 0, "Lower": 0, "Code": 0, "Short": 12, "Word": 6}
	var src, ops strings.Builder
	add := func(name, def string) {
		fmt.Fprintf(&src, "%s\n", def)
		fmt.Fprintf(&ops, "Op%s, ", name)
		fmt.Fprintf(&src, "operation Op%s { input := { @required x: %s } }\n", name, name)
	}
	for _, e := range elems {
		fmt.Fprintf(&src, "%s\n", e.def)
		for _, n := range []int{0, 1, 5, 69} {
			length := fmt.Sprintf("@length(min: %d)", n)
			add(fmt.Sprintf("L%s%d", e.name, n), fmt.Sprintf("%s list L%s%d { member: %s }", length, e.name, n, e.name))
			add(fmt.Sprintf("S%s%d", e.name, n), fmt.Sprintf("@sparse %s list S%s%d { member: %s }", length, e.name, n, e.name))
			if e.distinct == 0 || e.distinct >= n {
				add(fmt.Sprintf("U%s%d", e.name, n), fmt.Sprintf("@uniqueItems %s list U%s%d { member: %s }", length, e.name, n, e.name))
			}
			for k, distinct := range keys {
				if distinct == 0 || distinct >= n {
					add(fmt.Sprintf("M%s%s%d", k, e.name, n), fmt.Sprintf("%s map M%s%s%d { key: %s, value: %s }", length, k, e.name, n, k, e.name))
				}
			}
		}
	}
	text := "$version: \"2\"\nnamespace c\n@aws.protocols#awsJson1_0\nservice S { operations: [" + ops.String() + "] }\n" + src.String()
	if n := examplesValidate(t, text, "c#S"); n < 200 {
		t.Errorf("%d operations, want 200 or more", n)
	}
}

// examplesValidate loads the model text and checks Example's input of
// every operation of service sid with validation on; it returns the
// number of operations.
func examplesValidate(t *testing.T, text string, sid model.ShapeID) int {
	t.Helper()
	l := model.NewLoader()
	l.AddSource("inline.smithy", []byte(text))
	m, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	svc, err := m.Service(sid)
	if err != nil {
		t.Fatal(err)
	}
	codec, err := protocol.New(m, svc, validating...)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range svc.Operations {
		in := describe.Example(m, op).JSON()
		if _, err := codec.EncodeRequest(context.Background(), op, []byte(in)); err != nil {
			t.Errorf("%s: example %s\n  %v", op.Name, clip(in), err)
		}
	}
	return len(svc.Operations)
}

// TestExamplesOfAWSShapes: the example inputs of shapes found across the
// 402 AWS models (make reach) pass validation with constraints on: an
// @httpLabel whose pattern "" meets first (the example was "", and an
// empty label is refused), optional members that lead back into a
// structure being written (they were written as {}, missing the required
// members inside), a union met again inside itself (it was written with
// no member), @uniqueItems lists of structures (their entries were
// equal), and optional members whose @pattern no value meets, directly or
// through a required member (a JavaScript regex literal with its slashes).
func TestExamplesOfAWSShapes(t *testing.T) {
	examplesValidate(t, `$version: "2"
namespace a
use aws.protocols#restJson1
@restJson1
service S { operations: [Label, Recursive, Form, Unique, Unsatisfiable] }

@http(method: "DELETE", uri: "/hooks/{id}/{name}")
operation Label { input := {
    @required @httpLabel id: AnyText
    @required @httpLabel name: Name
} }
@length(min: 0, max: 255) @pattern("^(?s)") string AnyText
@pattern("(^[a-zA-Z0-9._-]*$)|(arn:[^:]*:project/[a-zA-Z0-9._-]*)") string Name

@http(method: "POST", uri: "/recursive")
operation Recursive { input := { @required node: Node, nodes: Nodes } }
structure Node { @required name: String, child: Node, children: Nodes }
@length(min: 1) list Nodes { member: Node }

@http(method: "POST", uri: "/items")
operation Form { input := { @required items: Items } }
union Item { section: Section, question: Question }
structure Section { @required title: String, @required items: Items }
structure Question { @required text: String }
@length(min: 1) list Items { member: Item }

@http(method: "POST", uri: "/unique")
operation Unique { input := { @required team: Team } }
@uniqueItems @length(min: 2) list Team { member: Person }
structure Person { @required name: String, email: String }

@http(method: "POST", uri: "/unsatisfiable")
operation Unsatisfiable { input := { account: JsAccount, details: Details } }
@pattern("/^[\\d]{12}$/") string JsAccount
structure Details { policy: Policy, other: String }
structure Policy { @required catalog: JsAccount }
`, "a#S")
}
