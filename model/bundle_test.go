package model_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
)

// usesBundled is a model that uses a trait of every bundled namespace
// without defining any of them.
const usesBundled = `$version: "2"
namespace ex

use alloy#simpleRestJson
use aws.api#service
use aws.auth#sigv4
use aws.customizations#s3UnwrappedXmlOutput
use aws.protocols#httpChecksum
use aws.protocols#restJson1
use smithy.framework#ValidationException
use smithy.protocols#rpcv2Cbor
use smithy.rules#contextParam
use smithy.rules#endpointRuleSet
use smithy.waiters#waitable

@restJson1
@simpleRestJson
@rpcv2Cbor
@sigv4(name: "ex")
@service(sdkId: "Ex", arnNamespace: "ex")
@endpointRuleSet({version: "1.0", parameters: {}, rules: []})
service Ex {
    operations: [Get]
}

@http(method: "GET", uri: "/{id}")
@readonly
@s3UnwrappedXmlOutput
@httpChecksum(responseAlgorithms: ["CRC32", "SHA256"])
@waitable(
    Ready: {
        acceptors: [{state: "success", matcher: {output: {path: "ok", expected: "true", comparator: "booleanEquals"}}}]
    }
)
operation Get {
    input := {
        @required
        @httpLabel
        @contextParam(name: "Id")
        id: String
    }
    output := {
        ok: Boolean
    }
    errors: [ValidationException]
}
`

func loadEvents(t *testing.T, name, src string) (*model.Model, []model.Event) {
	t.Helper()
	m, events, err := loadSource(t, name, src)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return m, events
}

// astShapeIDs returns the ids of the shapes of m's JSON AST, sorted.
func astShapeIDs(t *testing.T, m *model.Model) []string {
	t.Helper()
	var doc struct {
		Shapes map[string]json.RawMessage `json:"shapes"`
	}
	if err := json.Unmarshal(m.MarshalAST(), &doc); err != nil {
		t.Fatal(err)
	}
	ids := slices.Collect(maps.Keys(doc.Shapes))
	slices.Sort(ids)
	return ids
}

func noticeable(events []model.Event) []string {
	var out []string
	for _, e := range events {
		if e.Severity >= model.SeverityWarning {
			out = append(out, e.String())
		}
	}
	return out
}

// TestBundledTraitsResolve: a model that uses the bundled namespaces loads
// with no warning, and their definitions are in the model.
func TestBundledTraitsResolve(t *testing.T) {
	m, events := loadEvents(t, "uses.smithy", usesBundled)
	if bad := noticeable(events); len(bad) > 0 {
		t.Fatalf("events:\n%s", strings.Join(bad, "\n"))
	}
	for _, id := range []model.ShapeID{"aws.protocols#restJson1", "alloy#simpleRestJson", "smithy.framework#ValidationException",
		"smithy.waiters#waitable", "aws.auth#sigv4"} {
		if _, ok := m.Shape(id); !ok {
			t.Errorf("%s is not in the model", id)
		}
	}
	op, _ := m.Shape("ex#Get")
	if !strings.Contains(strings.Join(func() []string {
		var s []string
		for _, e := range op.Errors {
			s = append(s, string(e))
		}
		return s
	}(), ","), "smithy.framework#ValidationException") {
		t.Errorf("errors of Get = %v", op.Errors)
	}
	// A namespace the model does not refer to is not copied in.
	if _, ok := m.Shape("aws.api#arn"); !ok {
		t.Errorf("aws.api is referred to: its arn trait should be there")
	}
	// The JSON AST holds only the model's own shapes.
	if ids := astShapeIDs(t, m); strings.Join(ids, ",") != "ex#Ex,ex#Get,ex#GetInput,ex#GetOutput" {
		t.Errorf("the JSON AST has shapes %v", ids)
	}
	l := model.NewLoader()
	l.AddSource("back.json", m.MarshalAST())
	back, _, err := l.Load(context.Background())
	if err != nil {
		t.Fatalf("reading the JSON AST back: %v", err)
	}
	if d := model.Diff(m, back); len(d) > 0 {
		t.Errorf("round trip: %v", d)
	}
}

// TestBundledTraitValueChecked: a wrong value of a bundled trait is an error
// with its location, in IDL and in a JSON AST.
func TestBundledTraitValueChecked(t *testing.T) {
	cases := []struct{ name, edit, want string }{
		{"sdkId type", `sdkId: "Ex"`, "sdkId: 3"},
		{"sigv4 name missing", `@sigv4(name: "ex")`, "@sigv4({})"},
		{"arnNamespace pattern", `arnNamespace: "ex"`, `arnNamespace: "Not Valid"`},
		{"waiter acceptor state", `state: "success"`, `state: 7`},
	}
	for _, c := range cases {
		src := strings.Replace(usesBundled, c.edit, c.want, 1)
		_, events, err := loadSource(t, "bad.smithy", src)
		if err == nil {
			t.Errorf("%s: loaded without error", c.name)
			continue
		}
		found := false
		for _, e := range events {
			if e.Severity == model.SeverityError && e.ID == "TraitValue" && e.Loc.File == "bad.smithy" && e.Loc.Line > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no TraitValue error with a location: %v", c.name, events)
		}
	}
	const ast = `{"smithy": "2.0", "shapes": {"ex#S": {"type": "service",
		"traits": {"aws.auth#sigv4": {"name": ""}}}}}`
	if _, _, err := loadSource(t, "bad.json", ast); err == nil || !strings.Contains(err.Error(), "bad.json:") {
		t.Errorf("JSON AST with an empty sigv4 name: %v", err)
	}
}

// TestBundledNewerValues: values a newer definition may allow (an enum value,
// a member, a trait) are warnings, not errors: the model may come from a
// newer Smithy than the bundled definitions.
func TestBundledNewerValues(t *testing.T) {
	src := strings.Replace(usesBundled, `["CRC32", "SHA256"]`, `["CRC32", "CRC999"]`, 1)
	src = strings.Replace(src, `sdkId: "Ex",`, `sdkId: "Ex", futureField: true,`, 1)
	src = strings.Replace(src, "@readonly\n", "@readonly\n@aws.protocols#someFutureTrait\n", 1)
	_, events := loadEvents(t, "newer.smithy", src)
	want := []string{"CRC999", "futureField", "aws.protocols#someFutureTrait"}
	all := strings.Join(noticeable(events), "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("no warning naming %s in:\n%s", w, all)
		}
	}
}

// TestBundledUserDefinitionWins: a model's own definition of a bundled shape
// replaces the bundled one (an equal one is simply used); the namespace's
// other bundled shapes stay available.
func TestBundledUserDefinitionWins(t *testing.T) {
	own := `$version: "2"
namespace aws.protocols

@trait(selector: "service")
structure restJson1 {
    legacyFlag: Boolean
}
`
	l := model.NewLoader()
	l.AddSource("uses.smithy", []byte(strings.Replace(usesBundled, "@restJson1\n", "@restJson1(legacyFlag: true)\n", 1)))
	l.AddSource("aws.protocols.smithy", []byte(own))
	m, events, err := l.Load(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if bad := noticeable(events); len(bad) > 0 {
		t.Fatalf("events:\n%s", strings.Join(bad, "\n"))
	}
	def, _ := m.Shape("aws.protocols#restJson1")
	if _, ok := def.Member("legacyFlag"); !ok || def.Loc.File != "aws.protocols.smithy" {
		t.Errorf("restJson1 is not the model's own: %+v", def)
	}
	if _, ok := m.Shape("aws.protocols#httpChecksum"); !ok {
		t.Errorf("the bundled httpChecksum is gone")
	}
	if ids := astShapeIDs(t, m); !slices.Contains(ids, "aws.protocols#restJson1") || slices.Contains(ids, "aws.protocols#httpChecksum") {
		t.Errorf("the JSON AST has shapes %v; want the model's own restJson1 and no bundled shape", ids)
	}
}

// TestBundledApplyStaysInItsModel: traits applied to a bundled shape change
// that model only, never the shared definitions.
func TestBundledApplyStaysInItsModel(t *testing.T) {
	src := usesBundled + "\napply aws.protocols#restJson1 @since(\"mine\")\napply smithy.framework#ValidationException$message @since(\"also mine\")\n"
	m, _ := loadEvents(t, "apply.smithy", src)
	def, _ := m.Shape("aws.protocols#restJson1")
	if v, _ := def.Trait("smithy.api#since"); v.Str() != "mine" {
		t.Errorf("applied @since = %q", v.Str())
	}
	m2, _ := loadEvents(t, "plain.smithy", usesBundled)
	def2, _ := m2.Shape("aws.protocols#restJson1")
	if def2.HasTrait("smithy.api#since") {
		t.Errorf("the apply of another model changed the shared definition")
	}
	ve, _ := m2.Shape("smithy.framework#ValidationException")
	msg, _ := ve.Member("message")
	if msg.Traits.Has("smithy.api#since") {
		t.Errorf("the apply of another model changed a shared member")
	}
}

// TestAWSModelsLoadQuietly: the AWS models, which use aws.api, aws.auth,
// aws.protocols, smithy.rules and smithy.waiters traits, load with their
// traits checked and no warning.
func TestAWSModelsLoadQuietly(t *testing.T) {
	shared := sharedDir(t)
	if testing.Short() {
		t.Skip("loads every AWS model")
	}
	var files []string
	for _, dir := range []string{"aws", "aws-large"} {
		found, _ := filepath.Glob(filepath.Join(shared, "models", dir, "*.json"))
		files = append(files, found...)
	}
	if len(files) < 26 {
		t.Fatalf("found %d AWS models", len(files))
	}
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			t.Fatal(err)
		}
		l := model.NewLoader()
		if err := l.AddPath(f); err != nil {
			t.Fatal(err)
		}
		m, events, err := l.Load(context.Background())
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if bad := noticeable(events); len(bad) > 0 {
			t.Errorf("%s:\n%s", f, strings.Join(bad, "\n"))
		}
		if _, ok := m.Shape("aws.auth#sigv4"); !ok {
			t.Errorf("%s: aws.auth#sigv4 is not defined", f)
		}
	}
}

// TestBundledConcurrentLoads: loads share the bundled shapes; run with -race,
// concurrent loads (some applying traits to bundled shapes) do not race.
func TestBundledConcurrentLoads(t *testing.T) {
	withApply := usesBundled + "\napply aws.protocols#restJson1 @since(\"mine\")\n"
	errs := make(chan error, 8)
	for i := 0; i < 8; i++ {
		src := usesBundled
		if i%2 == 0 {
			src = withApply
		}
		go func() {
			l := model.NewLoader()
			l.AddSource("c.smithy", []byte(src))
			m, _, err := l.Load(context.Background())
			if err == nil {
				_ = m.MarshalAST()
			}
			errs <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
