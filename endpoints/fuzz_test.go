package endpoints_test

import (
	"testing"

	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
)

// FuzzRuleSet: any rule set text compiles or is refused, and one that
// compiles resolves or fails with an error, never a panic or a hang.
func FuzzRuleSet(f *testing.F) {
	f.Add(`{"version": "1.0", "parameters": {"Region": {"type": "string", "builtIn": "AWS::Region"}},
	  "rules": [{"conditions": [{"fn": "aws.partition", "argv": [{"ref": "Region"}], "assign": "p"},
	    {"fn": "isValidHostLabel", "argv": ["{Region}", true]}],
	    "type": "endpoint", "endpoint": {"url": "https://svc.{Region}.{p#dnsSuffix}", "headers": {"x": ["{p#name}"]},
	    "properties": {"authSchemes": [{"name": "sigv4", "signingRegion": "{Region}"}]}}},
	   {"conditions": [], "type": "error", "error": "no region"}]}`)
	f.Add(`{"version": "1.1", "parameters": {"S": {"type": "string", "required": true, "default": "a--b"}},
	  "rules": [{"conditions": [{"fn": "split", "argv": [{"ref": "S"}, "--", 0], "assign": "x"},
	    {"fn": "coalesce", "argv": [{"fn": "getAttr", "argv": [{"ref": "x"}, "[-1]"]}, "z"], "assign": "y"},
	    {"fn": "substring", "argv": ["{y}", 0, 1, true]}, {"fn": "parseURL", "argv": ["https://{y}.com"], "assign": "u"},
	    {"fn": "aws.parseArn", "argv": ["{S}"], "assign": "arn"}],
	    "type": "tree", "rules": [{"conditions": [{"fn": "not", "argv": [{"fn": "ite", "argv": [true, false, true]}]}],
	    "type": "error", "error": "{arn#resourceId[0]}{u#authority}"}]}]}`)
	f.Fuzz(func(t *testing.T, src string) {
		n, err := model.ParseJSONNode(src)
		if err != nil {
			return
		}
		rs, err := endpoints.Compile(n)
		if err != nil {
			return
		}
		p := rs.NewParams()
		for _, prm := range rs.Params() {
			switch prm.Type {
			case "string":
				_ = p.Set(prm.Name, endpoints.String("us-east-1"))
			case "boolean":
				_ = p.Set(prm.Name, endpoints.Bool(true))
			}
		}
		_, _ = rs.Resolve(p)
		_, _ = rs.Resolve(rs.NewParams())
	})
}

// FuzzPath: any operationContextParams path compiles or is refused, and
// evaluates without a panic.
func FuzzPath(f *testing.F) {
	for _, s := range []string{"a.b[*].c", "keys(m)", "u[*][s, o.k][]", "m.*", "[a, b][]"} {
		f.Add(s)
	}
	doc, _ := model.ParseJSONNode(`{"a": {"b": [{"c": "1"}, [2], null]}, "m": {"k": "v"}, "u": [{"s": "x"}]}`)
	f.Fuzz(func(t *testing.T, src string) {
		p, err := endpoints.CompilePath(src)
		if err != nil {
			return
		}
		_ = p.Eval(doc)
	})
}
