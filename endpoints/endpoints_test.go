package endpoints_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/conformance"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// TestPartitionsMatchShared checks the project's partitions table against
// the AWS partitions.json of the shared data, field by field, so that the
// two cannot drift apart unnoticed.
func TestPartitionsMatchShared(t *testing.T) {
	shared := shareddata.Path(t)
	data, err := os.ReadFile(filepath.Join(shared, "endpoints", "partitions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Partitions []struct {
			ID          string                     `json:"id"`
			RegionRegex string                     `json:"regionRegex"`
			Regions     map[string]json.RawMessage `json:"regions"`
			Outputs     struct {
				Name                 string `json:"name"`
				DNSSuffix            string `json:"dnsSuffix"`
				DualStackDNSSuffix   string `json:"dualStackDnsSuffix"`
				SupportsFIPS         bool   `json:"supportsFIPS"`
				SupportsDualStack    bool   `json:"supportsDualStack"`
				ImplicitGlobalRegion string `json:"implicitGlobalRegion"`
			} `json:"outputs"`
		} `json:"partitions"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	ours := endpoints.Partitions()
	if len(ours) != len(doc.Partitions) {
		t.Fatalf("%d partitions, partitions.json has %d", len(ours), len(doc.Partitions))
	}
	for i, want := range doc.Partitions {
		got := ours[i]
		o := want.Outputs
		var regions []string
		for r := range want.Regions {
			regions = append(regions, r)
		}
		slices.Sort(regions)
		gotRegions := slices.Sorted(slices.Values(got.Regions))
		checks := []struct {
			field     string
			got, want any
		}{
			{"id", got.ID, want.ID},
			{"regionRegex", got.RegionRegex, want.RegionRegex},
			{"regions", strings.Join(gotRegions, ","), strings.Join(regions, ",")},
			{"name", got.Name, o.Name},
			{"dnsSuffix", got.DNSSuffix, o.DNSSuffix},
			{"dualStackDnsSuffix", got.DualStackDNSSuffix, o.DualStackDNSSuffix},
			{"supportsFIPS", got.SupportsFIPS, o.SupportsFIPS},
			{"supportsDualStack", got.SupportsDualStack, o.SupportsDualStack},
			{"implicitGlobalRegion", got.ImplicitGlobalRegion, o.ImplicitGlobalRegion},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("partition %d (%s) %s: %v, partitions.json has %v", i, want.ID, c.field, c.got, c.want)
			}
		}
	}
}

// TestOfficialRuleTests runs the rules-engine test models (the
// endpoint-rules conformance suite).
func TestOfficialRuleTests(t *testing.T) {
	shared := shareddata.Path(t)
	r := conformance.EndpointRules(shared)
	for _, f := range r.Failures {
		t.Error(f)
	}
	if r.Passed < 94 {
		t.Errorf("%s: want at least 94 passed", r.Summary())
	}
}

func compile(t *testing.T, src string) (*endpoints.RuleSet, error) {
	t.Helper()
	n, err := model.ParseJSONNode(src)
	if err != nil {
		t.Fatal(err)
	}
	return endpoints.Compile(n)
}

func TestCompileErrors(t *testing.T) {
	deep := `{"conditions": [], "type": "endpoint", "endpoint": {"url": "https://x"}}`
	for range 70 {
		deep = `{"conditions": [], "type": "tree", "rules": [` + deep + `]}`
	}
	cases := []struct{ name, rules, want string }{
		{"unknown function", `[{"documentation": "r1", "conditions": [{"fn": "frob", "argv": []}], "type": "error", "error": "x"}]`,
			`rules[0] (r1): condition 0: unknown function "frob"`},
		{"wrong type", `[{"conditions": [{"fn": "booleanEquals", "argv": [{"ref": "Region"}, true]}], "type": "error", "error": "x"}]`,
			`booleanEquals argument 1 is a string, not a boolean`},
		{"wrong count", `[{"conditions": [{"fn": "isSet", "argv": []}], "type": "error", "error": "x"}]`,
			`isSet takes 1 arguments, got 0`},
		{"unknown ref", `[{"conditions": [], "type": "endpoint", "endpoint": {"url": "https://{Nope}"}}]`,
			`reference to "Nope"`},
		{"variable out of scope", `[{"conditions": [{"fn": "aws.partition", "argv": [{"ref": "Region"}], "assign": "p"}], "type": "error", "error": "x"},
			{"conditions": [], "type": "error", "error": "{p#name}"}]`, `reference to "p"`},
		{"too deep", `[` + deep + `]`, `nested deeper than 64`},
		{"unknown rule type", `[{"conditions": [], "type": "loop"}]`, `unknown rule type "loop"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := compile(t, `{"version": "1.0", "parameters": {"Region": {"type": "String", "builtIn": "AWS::Region"}}, "rules": `+c.rules+`}`)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestBadRegion: a region that is not a host name is refused before any
// rule runs (DynamoDB's rules put the region into the host unchecked), and
// S3's rules refuse it themselves.
func TestBadRegion(t *testing.T) {
	_, es := awsService(t, "aws-large/s3.json")
	for _, region := range []string{"us-east-1/../evil", "us-east-1\r\nX-Evil: 1", "a b", "evil.com#", ""} {
		if err := endpoints.CheckRegion(region); err == nil {
			t.Errorf("CheckRegion(%q) accepted it", region)
		}
		p := es.RuleSet.NewParams()
		if err := p.Set("Region", endpoints.String(region)); err != nil {
			t.Fatal(err)
		}
		ep, err := es.RuleSet.Resolve(p)
		var re *endpoints.RuleError
		if !errors.As(err, &re) {
			t.Errorf("s3 region %q: got %v, %v; want a rule error", region, ep, err)
		}
	}
	for _, region := range []string{"us-east-1", "aws-global", "fips-us-gov-west-1", "eusc-de-east-1"} {
		if err := endpoints.CheckRegion(region); err != nil {
			t.Error(err)
		}
	}
}

func TestRequiredAndTypes(t *testing.T) {
	rs, err := compile(t, `{"version": "1.0", "parameters": {"Name": {"type": "string", "required": true},
		"Flag": {"type": "boolean", "required": true, "default": true}},
		"rules": [{"conditions": [{"fn": "booleanEquals", "argv": [{"ref": "Flag"}, true]}], "type": "endpoint",
		"endpoint": {"url": "https://{Name}.example.com", "headers": {"x-a": ["{Name}", "b"]}, "properties": {"p": [{"k": "{Name}"}, true]}}},
		{"conditions": [], "type": "error", "error": "flag off for {Name}"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rs.Resolve(rs.NewParams()); err == nil || err.Error() != "endpoint rules: parameter Name is required" {
		t.Fatalf("got %v", err)
	}
	p := rs.NewParams()
	if err := p.Set("Name", endpoints.Bool(true)); err == nil {
		t.Fatal("a boolean for a string parameter was accepted")
	}
	if err := p.Set("Nam", endpoints.String("x")); err == nil || !strings.Contains(err.Error(), "Flag, Name") {
		t.Fatalf("unknown parameter: %v", err)
	}
	_ = p.Set("Name", endpoints.String("svc"))
	ep, err := rs.Resolve(p)
	if err != nil {
		t.Fatal(err)
	}
	if ep.String() != `https://svc.example.com headers={"x-a":["svc","b"]} properties={"p":[{"k":"svc"},true]}` {
		t.Fatalf("got %s", ep)
	}
	_ = p.Set("Flag", endpoints.Bool(false))
	if _, err := rs.Resolve(p); err == nil || err.Error() != "endpoint rules: flag off for svc" {
		t.Fatalf("got %v", err)
	}
}

func TestPaths(t *testing.T) {
	doc, err := model.ParseJSONNode(`{"a": {"b": [{"c": "1"}, {"c": "2"}, {"d": 3}]}, "m": {"k1": "v1", "k2": "v2"},
		"u": [{"s": "x"}, {"o": {"k": "y"}}], "nested": [["p", "q"], ["r"]]}`)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"a.b[*].c":              `["1","2"]`,
		"keys(m)":               `["k1","k2"]`,
		"m.*":                   `["v1","v2"]`,
		"u[*][s, o.k][]":        `["x","y"]`,
		"nested[]":              `["p","q","r"]`,
		"a.missing":             `null`,
		"a.b[*].c.nothing":      `[]`,
		"u[*].s":                `["x"]`,
		"a.b":                   `[{"c":"1"},{"c":"2"},{"d":3}]`,
		"[a.b[*].c, keys(m)][]": `["1","2","k1","k2"]`,
	}
	for src, want := range cases {
		p, err := endpoints.CompilePath(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := p.Eval(doc).JSON(); got != want {
			t.Errorf("%s: %s, want %s", src, got, want)
		}
	}
	deep := strings.Repeat("keys(", 40) + "a" + strings.Repeat(")", 40)
	for _, bad := range []string{"", "a.", "a[", "length(a)", "a[0", "[a,", deep} {
		if _, err := endpoints.CompilePath(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestConcurrentResolve: one compiled rule set serves many goroutines
// (run with -race).
func TestConcurrentResolve(t *testing.T) {
	_, es := awsService(t, "aws-large/s3.json")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				bucket := fmt.Sprintf("bucket-%d-%d", g, i)
				p := es.RuleSet.NewParams()
				_ = p.Set("Region", endpoints.String("eu-west-1"))
				_ = p.Set("Bucket", endpoints.String(bucket))
				ep, err := es.RuleSet.Resolve(p)
				if err != nil || ep.URL != "https://"+bucket+".s3.eu-west-1.amazonaws.com" {
					errs <- fmt.Errorf("%s: %v %v", bucket, ep, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// Two parameter sets share a key exactly when their values are equal:
// unset, "" and false differ, as do a string and a one-item array.
func TestParamsKey(t *testing.T) {
	rs, err := compile(t, `{"version": "1.0", "parameters": {"Region": {"type": "String"}, "UseFIPS": {"type": "Boolean"}, "Tags": {"type": "StringArray"}},
		"rules": [{"conditions": [], "type": "error", "error": "x"}]}`)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, set := range []func(*endpoints.Params){
		func(*endpoints.Params) {},
		func(p *endpoints.Params) { p.Set("Region", endpoints.String("")) },
		func(p *endpoints.Params) { p.Set("Region", endpoints.String("us-east-1")) },
		func(p *endpoints.Params) {
			p.Set("Region", endpoints.String("us-east-1"))
			p.Set("UseFIPS", endpoints.Bool(false))
		},
		func(p *endpoints.Params) {
			p.Set("Region", endpoints.String("us-east-1"))
			p.Set("UseFIPS", endpoints.Bool(true))
		},
		func(p *endpoints.Params) { p.Set("Tags", endpoints.StringArray([]string{"us-east-1"})) },
		func(p *endpoints.Params) { p.Set("Tags", endpoints.StringArray([]string{"us-east", "-1"})) },
		func(p *endpoints.Params) { p.Set("Tags", endpoints.StringArray([]string{"us-east-1", ""})) },
	} {
		p := rs.NewParams()
		set(p)
		k := string(p.AppendKey(nil))
		for i, o := range keys {
			if o == k {
				t.Errorf("set %d has the key of set %d", len(keys), i)
			}
		}
		keys = append(keys, k)
		q := rs.NewParams()
		set(q)
		if string(q.AppendKey(nil)) != k {
			t.Errorf("set %d: equal values, different keys", len(keys)-1)
		}
	}
}
