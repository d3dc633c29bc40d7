package model

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func idlSmithyFiles(t testing.TB, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".smithy") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func idlErrorEvents(f *draftFile) []Event {
	var errs []Event
	for _, e := range f.events {
		if e.Severity == SeverityError {
			errs = append(errs, e)
		}
	}
	return errs
}

// idlEventText formats an event like the expected texts of the conformance data.
func idlEventText(e Event) string {
	s := e.Message + " | " + e.ID
	if e.Shape != "" {
		s = string(e.Shape) + ": " + s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "[EOF]", ""), "\n", `\n`)
}

func TestParseIDLValidFiles(t *testing.T) {
	root := filepath.Join(shareddata.Path(t), "idl-conformance")
	files := append(idlSmithyFiles(t, filepath.Join(root, "valid")), idlSmithyFiles(t, filepath.Join(root, "forwardrefs"))...)
	if len(files) < 80 {
		t.Fatalf("found only %d valid files", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f := parseIDL(path, src)
		for _, e := range idlErrorEvents(f) {
			t.Errorf("%s: %s", path, e)
		}
	}
}

// parserErrors are the expected texts of invalid cases that the parser (not
// the assembler or validators) reports without "Syntax error".
var parserErrors = []string{"Use statements cannot use members", "Cannot use name", "Shape name `",
	"Members can only elide targets", "Structures can only be bound", "Inlined operation inputs",
	"Unknown property", "The $version control statement", "Resource properties can only be used"}

func TestParseIDLInvalidFiles(t *testing.T) {
	root := filepath.Join(shareddata.Path(t), "idl-conformance", "invalid")
	files := idlSmithyFiles(t, root)
	parserCases := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := bytes.Cut(src, []byte("\n"))
		want := strings.ReplaceAll(strings.TrimRight(string(first[min(3, len(first)):]), "\r"), "[EOF]", "")
		f := parseIDL(path, src)
		errs := idlErrorEvents(f)
		text := strings.TrimSpace(strings.TrimPrefix(string(first), "//"))
		ours := strings.Contains(text, "Syntax error at line")
		for _, p := range parserErrors {
			ours = ours || strings.Contains(text, p)
		}
		if !ours {
			// Semantic errors are found later; the text itself is valid syntax.
			for _, e := range errs {
				t.Errorf("%s: unexpected parser error %s", path, e)
			}
			continue
		}
		parserCases++
		if len(errs) != 1 {
			t.Errorf("%s: want one error %q, got %v", path, want, errs)
			continue
		}
		got := idlEventText(errs[0])
		if !strings.Contains(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", path, got, want)
		}
		var line, col int32
		if _, err := fmt.Sscanf(want, "Syntax error at line %d, column %d", &line, &col); err == nil &&
			strings.HasPrefix(errs[0].Message, fmt.Sprintf("Syntax error at line %d, column %d:", line, col)) &&
			(errs[0].Loc.Line != line || errs[0].Loc.Column != col) {
			t.Errorf("%s: error at %d:%d, want %d:%d", path, errs[0].Loc.Line, errs[0].Loc.Column, line, col)
		}
	}
	if parserCases < 140 {
		t.Errorf("only %d parser cases", parserCases)
	}
}

// TestParseIDLErrorFiles checks that each event the parser reports for the
// loader error files is one of the expected events.
func TestParseIDLErrorFiles(t *testing.T) {
	root := filepath.Join(shareddata.Path(t), "idl-conformance", "errorfiles", "loader")
	for _, path := range idlSmithyFiles(t, root) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		expected, err := os.ReadFile(strings.TrimSuffix(path, ".smithy") + ".errors")
		if err != nil {
			t.Fatal(err)
		}
		f := parseIDL(path, src)
		for _, e := range f.events {
			if !idlMatchesErrorsLine(e, string(expected)) {
				t.Errorf("%s: unexpected event %s", path, e)
			}
		}
	}
}

func idlMatchesErrorsLine(e Event, expected string) bool {
	sc := bufio.NewScanner(strings.NewReader(expected))
	for sc.Scan() {
		sev, rest, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "["), "] ")
		if !ok || sev != e.Severity.String() {
			continue
		}
		shape, rest, _ := strings.Cut(rest, ": ")
		i := strings.LastIndex(rest, " | ")
		if i < 0 || (shape != "-" && ShapeID(shape) != e.Shape) || (shape == "-" && e.Shape != "") {
			continue
		}
		msg, id := rest[:i], rest[i+3:]
		if (e.ID == id || strings.HasPrefix(e.ID, id+".")) &&
			strings.HasPrefix(strings.ReplaceAll(e.Message, "\n", `\n`), msg) {
			return true
		}
	}
	return false
}

func TestParseIDLTraitLocations(t *testing.T) {
	path := filepath.Join(shareddata.Path(t), "idl-conformance", "valid", "trait-locations.smithy")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := parseIDL(path, src)
	s := idlFindShape(t, f, "com.example#TraitBearer")
	if len(s.traits) != 11 || len(s.members) != 1 || len(s.members[0].traits) != 11 {
		t.Fatalf("traits: %d, members: %d", len(s.traits), len(s.members))
	}
	for i, tr := range s.traits {
		if tr.loc.Column != 1 || s.members[0].traits[i].loc.Column != 5 {
			t.Errorf("trait %s at %v, member trait at %v", tr.name.name, tr.loc, s.members[0].traits[i].loc)
		}
	}
}

func idlMustParse(t *testing.T, src string) *draftFile {
	t.Helper()
	f := parseIDL("test.smithy", []byte(src))
	for _, e := range f.events {
		t.Errorf("unexpected event: %s", e)
	}
	return f
}

func idlFindShape(t *testing.T, f *draftFile, id ShapeID) *draftShape {
	t.Helper()
	for _, s := range f.shapes {
		if s.id == id {
			return s
		}
	}
	t.Fatalf("no shape %s", id)
	return nil
}

func idlTraitValue(t *testing.T, traits []draftTrait, name string) Node {
	t.Helper()
	for _, tr := range traits {
		if tr.name.name == name {
			return tr.value
		}
	}
	t.Fatalf("no trait %s in %v", name, traits)
	return Node{}
}

func TestParseIDLStrings(t *testing.T) {
	tests := []struct{ lit, want string }{
		{`""`, ""},
		{`"plain"`, "plain"},
		{`"a\"b\\c\/d\b\f\n\r\t"`, "a\"b\\c/d\b\f\n\r\t"},
		{`"\u00e9\u20AC"`, "é€"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\ud83d"`, "\uFFFD"},
		{"\"a\\\nb\"", "ab"},
		{"\"a\r\nb\rc\"", "a\nb\nc"},
		{"\"\"\"\n    \"\"\"", ""},
		{"\"\"\"\n\n    \"\"\"", "\n"},
		{"\"\"\"\n    Hello\n    \"\"\"", "Hello\n"},
		{"\"\"\"\n    Hello\"\"\"", "Hello"},
		{"\"\"\"\n    Hi \\\n    there \\\n    bye\"\"\"", "Hi there bye"},
		{"\"\"\"\n    Hello\n      There  \n\n    Ok\n         \"\"\"", "Hello\n  There\n\nOk\n"},
		{"\"\"\"\n      a\n    b\n  \"\"\"", "    a\n  b\n"},
		{"\"\"\"\n    \"Hi\\\"\"\"\"", `"Hi"`},
		{"\"\"\"\r\n  a\r\n  \"\"\"", "a\n"},
	}
	for _, tc := range tests {
		f := idlMustParse(t, "$version: \"2\"\nnamespace a\n@documentation("+tc.lit+")\nstring S\n")
		if len(f.shapes) == 1 {
			if got := idlTraitValue(t, f.shapes[0].traits, "documentation").Str(); got != tc.want {
				t.Errorf("%s: got %q, want %q", tc.lit, got, tc.want)
			}
		}
	}
}

func TestParseIDLNodes(t *testing.T) {
	f := idlMustParse(t, `metadata a = [1, -2.5e+3, 007, true, false, null, Foo, foo.bar#Baz$qux, "s", {k: 1, "q k": []}]
metadata "b" = {}
`)
	if len(f.metadata) != 2 || f.metadata[1].key != "b" || f.metadata[1].value.Kind() != ObjectNode {
		t.Fatalf("metadata: %+v", f.metadata)
	}
	items := f.metadata[0].value.Items()
	want := `[1,-2.5e+3,7,true,false,null,"Foo","foo.bar#Baz$qux","s",{"k":1,"q k":[]}]`
	if got := f.metadata[0].value.JSON(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if !items[6].syntactic || !items[7].syntactic || items[8].syntactic {
		t.Errorf("syntactic flags: %v %v %v", items[6].syntactic, items[7].syntactic, items[8].syntactic)
	}
	if f.version != "1.0" || f.namespace != "" {
		t.Errorf("version %q namespace %q", f.version, f.namespace)
	}
}

func TestParseIDLTraits(t *testing.T) {
	f := idlMustParse(t, `$version: "2.0"
namespace ns
use other#tr

@a
@b()
@c(1)
@d(x: 1, "y": [2])
@e("s")
@f("k": "v")
@g(Foo)
@h(ns#Foo)
@other#tr({})
structure S {}
`)
	s := idlFindShape(t, f, "ns#S")
	got := []string{}
	for _, tr := range s.traits {
		got = append(got, fmt.Sprintf("%s %v %s", tr.name.name, tr.annotation, tr.value.JSON()))
	}
	want := []string{"a true null", "b true null", "c false 1", `d false {"x":1,"y":[2]}`, `e false "s"`,
		`f false {"k":"v"}`, `g false "Foo"`, `h false "ns#Foo"`, "other#tr false {}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(f.uses) != 1 || f.uses[0].id != "other#tr" {
		t.Errorf("uses: %v", f.uses)
	}
	if s.traits[0].loc != (SourceLocation{File: "test.smithy", Line: 5, Column: 1}) {
		t.Errorf("trait location %v", s.traits[0].loc)
	}
}

func TestParseIDLShapes(t *testing.T) {
	f := idlMustParse(t, `$version: "2"
namespace ex

/// Docs
///  second line
///
///no space
structure S for R with [M, other#N] {
    /// Member docs
    @required
    a: String = "x",
    $id
    b: smithy.api#Integer = 1
}

enum E {
    A
    B = "b"
}

intEnum I {
    ONE = 1,
    TWO = 2
}

list L { member: String }

map Mp { key: String, value: String }

union U { a: String }

apply S$a @sensitive

apply S {
    @tags(["x"])
    @deprecated
}

timestamp T with [M]
`)
	s := idlFindShape(t, f, "ex#S")
	if s.typ != StructureType || s.forResource.name != "R" || len(s.mixins) != 2 || s.mixins[1].name != "other#N" {
		t.Errorf("shape S: %+v", s)
	}
	if doc := idlTraitValue(t, s.traits, "smithy.api#documentation").Str(); doc != "Docs\n second line\n\nno space" {
		t.Errorf("docs %q", doc)
	}
	if s.loc.Line != 8 || s.loc.Column != 1 {
		t.Errorf("S location %v", s.loc)
	}
	a, id, b := s.members[0], s.members[1], s.members[2]
	if a.name != "a" || a.target.name != "String" || a.loc.Line != 11 || a.loc.Column != 5 {
		t.Errorf("member a: %+v", a)
	}
	if idlTraitValue(t, a.traits, "smithy.api#default").Str() != "x" ||
		idlTraitValue(t, a.traits, "smithy.api#documentation").Str() != "Member docs" {
		t.Errorf("member a traits: %v", a.traits)
	}
	if !id.elided || id.target.set() || id.name != "id" {
		t.Errorf("member id: %+v", id)
	}
	if b.target.name != "smithy.api#Integer" || idlTraitValue(t, b.traits, "smithy.api#default").Literal() != "1" {
		t.Errorf("member b: %+v", b)
	}
	e := idlFindShape(t, f, "ex#E")
	if len(e.members) != 2 || e.members[0].target.name != "smithy.api#Unit" || len(e.members[0].traits) != 0 ||
		idlTraitValue(t, e.members[1].traits, "smithy.api#enumValue").Str() != "b" {
		t.Errorf("enum: %+v", e.members)
	}
	i := idlFindShape(t, f, "ex#I")
	if i.typ != IntEnumType || idlTraitValue(t, i.members[1].traits, "smithy.api#enumValue").Literal() != "2" {
		t.Errorf("intEnum: %+v", i)
	}
	mp := idlFindShape(t, f, "ex#Mp")
	if len(mp.members) != 2 || mp.members[1].name != "value" {
		t.Errorf("map: %+v", mp.members)
	}
	if len(f.applies) != 2 || f.applies[0].target.name != "S$a" || len(f.applies[1].traits) != 2 ||
		!f.applies[1].traits[1].annotation {
		t.Errorf("applies: %+v", f.applies)
	}
	if tm := idlFindShape(t, f, "ex#T"); tm.typ != TimestampType || len(tm.mixins) != 1 {
		t.Errorf("timestamp: %+v", tm)
	}
}

func TestParseIDLServiceResourceOperation(t *testing.T) {
	f := idlMustParse(t, `$version: "2.0"
$operationOutputSuffix: "Response"
namespace ex

service Svc {
    version: "2024-01-01"
    operations: [Op]
    resources: []
    errors: ["ex#Err"]
    rename: { "other#Foo": "Bar" }
}

resource R {
    identifiers: { id: String }
    properties: { name: String }
    read: Op
    collectionOperations: [Op]
}

operation Op {
    input := @tags(["t"]) {
        id: String
    }
    output :=
        /// Out docs
        for R with [M] {
            $name
        }
    errors: [Err]
}

operation Plain {
    input: In
}
`)
	svc := idlFindShape(t, f, "ex#Svc")
	if svc.version != "2024-01-01" || len(svc.operations) != 1 || svc.operations[0].name != "Op" ||
		svc.resources == nil || svc.errors[0].name != "ex#Err" || svc.rename[0].name != "other#Foo" ||
		svc.rename[0].target.name != "Bar" {
		t.Errorf("service: %+v", svc)
	}
	if svc.operations[0].loc.Line != 7 || svc.operations[0].loc.Column != 18 {
		t.Errorf("operation ref location %v", svc.operations[0].loc)
	}
	r := idlFindShape(t, f, "ex#R")
	if r.identifiers[0].name != "id" || r.identifiers[0].target.name != "String" || r.properties[0].name != "name" ||
		r.read.name != "Op" || len(r.collectionOps) != 1 {
		t.Errorf("resource: %+v", r)
	}
	op := idlFindShape(t, f, "ex#Op")
	if op.input.name != "ex#OpInput" || op.output.name != "ex#OpResponse" || len(op.errors) != 1 {
		t.Errorf("operation: %+v", op)
	}
	in := idlFindShape(t, f, "ex#OpInput")
	if in.typ != StructureType || len(in.traits) != 2 || in.traits[0].name.name != "tags" ||
		in.traits[1].name.name != "smithy.api#input" || in.traits[1].value.Kind() != ObjectNode {
		t.Errorf("input: %+v", in)
	}
	out := idlFindShape(t, f, "ex#OpResponse")
	if out.forResource.name != "R" || out.mixins[0].name != "M" || !out.members[0].elided ||
		idlTraitValue(t, out.traits, "smithy.api#documentation").Str() != "Out docs" {
		t.Errorf("output: %+v", out)
	}
	if p := idlFindShape(t, f, "ex#Plain"); p.input.name != "In" || p.output.set() {
		t.Errorf("plain: %+v", p)
	}
}

func TestParseIDLVersion1(t *testing.T) {
	f := idlMustParse(t, "namespace ex\nset S { member: String }\nresource R { identifiers: { id: String } }\n")
	if f.version != "1.0" || idlFindShape(t, f, "ex#S").typ != SetType {
		t.Errorf("version %q", f.version)
	}
	if f := idlMustParse(t, "$version: \"1\"\nnamespace ex\n"); f.version != "1.0" {
		t.Errorf("version %q", f.version)
	}
	if f := idlMustParse(t, "$version: \"2\"\nnamespace ex\n"); f.version != "2.0" {
		t.Errorf("version %q", f.version)
	}
	for _, src := range []string{
		"structure S { $id }",
		"structure S { a: String = \"\" }",
		"structure S with [M] {}",
		"operation O { input := {} }",
		"resource R { properties: {} }",
	} {
		f := parseIDL("t.smithy", []byte("$version: \"1.0\"\nnamespace ex\n"+src+"\n"))
		if len(idlErrorEvents(f)) != 1 {
			t.Errorf("%s: want an error in IDL 1.0, got %v", src, f.events)
		}
	}
}

func TestParseIDLDocCommentWarnings(t *testing.T) {
	f := parseIDL("t.smithy", []byte(`$version: "2"
namespace ex
structure S {
    a: String
    /// dangling
}
apply S @deprecated /// after apply
/// at end
`))
	var got []string
	for _, e := range f.events {
		if e.Severity != SeverityWarning || e.ID != "Model.BadDocumentationComment" {
			t.Errorf("unexpected event %s", e)
		}
		got = append(got, e.Message[strings.LastIndex(e.Message, ": ")+2:])
	}
	if strings.Join(got, "|") != "dangling|after apply|at end" {
		t.Errorf("warnings for %q", got)
	}
}

func TestParseIDLErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"$version: \"2\"\n$foo: 1\n", ""},
		{"namespace a\nstructure S {\n  a: String\n  a: Integer\n}\n", "Syntax error at line 4, column 3: Duplicate member of `a#S`: 'a'"},
		{"namespace a\n@t(a: 1, a: 2)\nstring S\n", "Duplicate member of trait: 'a'"},
		{"metadata m = {a: 1, a: 2}\n", "Duplicate member: 'a'"},
		{"metadata m = [\"\u00e9\", !]\n", "Syntax error at line 1, column 20: Unexpected character: '!'"},
		{"metadata m = \"\U0001F600\" !\n", "Syntax error at line 1, column 19: Expected a line break, but found ERROR('!')"},
		{"namespace a\nstring S // \u00e9\n\"x\"\n", "Syntax error at line 3, column 1: Expected IDENTIFIER but found STRING('\"x\"')"},
		{"namespace a\n@foo // \u00e9", "Syntax error at line 2, column 10: Expected IDENTIFIER but found EOF"},
		{"metadata m = " + strings.Repeat("[", 100) + "\n", "Parser exceeded maximum allowed depth of 64"},
		{"metadata m = \"\\u12\"\n", "Invalid unclosed unicode escape found in string"},
		{"metadata m = \"\x01\"\n", "Invalid string character"},
		{"metadata m = 1.5e\n", "Invalid number '1.5e'"},
		{"metadata m = [/x]\n", "Expected a '/' to follow '/' to form a comment."},
		{"namespace a\nstructure __ {}\n", "Syntax error at line 2, column 11: Syntax error at line 2, column 13: Expected a valid identifier character, but found ' '"},
		{"namespace a\noperation O { input: A}\n", "Expected one or more whitespace characters, but found RBRACE('}')"},
		{"namespace a\nservice S { foo: 1 }\n", ""},
	}
	for _, tc := range tests {
		f := parseIDL("t.smithy", []byte(tc.src))
		errs := idlErrorEvents(f)
		if tc.want == "" {
			if len(errs) != 0 || len(f.events) != 1 || f.events[0].Severity != SeverityWarning {
				t.Errorf("%q: want one warning, got %v", tc.src, f.events)
			}
			continue
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Message, tc.want) {
			t.Errorf("%q: want %q, got %v", tc.src, tc.want, errs)
		}
	}
}

func FuzzParseIDL(f *testing.F) {
	seeds := []string{
		"", "$version: \"2\"\nnamespace a\nstructure S { a: String = 1 }\n",
		"namespace a\n@t(\"\"\"\n  x\n  \"\"\")\nstring S\n",
		"$version: \"2\"\nnamespace a\noperation O { input := @a with [M] { $b } output: X errors: [] }\n",
		"metadata m = [{a: b.c#D$e}, -1.5e3, \"\\ud83d\\ude00\"]\n",
		"namespace a\napply A$b { @c(d: [1]) }\n/// x\n",
	}
	root := shareddata.Path(f)
	for _, name := range []string{"valid/main-test.smithy", "valid/text-blocks.smithy",
		"valid/inline-io/inline-io.smithy", "valid/mixins/loads-mixins.smithy", "valid/enums/enums.smithy",
		"invalid/strings/unclosed-text-block.smithy", "invalid/traits/annotation-unclosed-object3.smithy"} {
		// Seeds from the shared data are optional: the inline ones suffice.
		if src, err := os.ReadFile(filepath.Join(root, "idl-conformance", name)); err == nil {
			seeds = append(seeds, string(src))
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		parseIDL("fuzz.smithy", src)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("parsing %d bytes took %v", len(src), d)
		}
	})
}

// BenchmarkParseIDL parses a synthetic model of more than 1 MB.
func BenchmarkParseIDL(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("$version: \"2.0\"\n\nnamespace bench.example\n\nuse smithy.api#String\n\n")
	for i := 0; sb.Len() < 1<<20; i++ {
		fmt.Fprintf(&sb, `/// Operation number %d does things.
/// It has a second line of documentation.
@http(method: "POST", uri: "/op/%d", code: 200)
@tags(["a", "b"])
operation Op%d {
    input := {
        @required
        @httpLabel
        id: String
        /// Some count.
        count: Integer = 0
    }
    output: Out%d
    errors: [BadRequest, NotFound]
}

/// Output structure %d.
structure Out%d {
    @documentation("""
        A text block
        with two lines.
        """)
    name: String
    items: StringList
    value: Long = 12345
    nested: smithy.api#Document
}

`, i, i, i, i, i, i)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if f := parseIDL("bench.smithy", src); len(f.events) != 0 {
			b.Fatal(f.events[0])
		}
	}
}
