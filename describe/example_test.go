package describe_test

import (
	"context"
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
