package contract_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/internal/contract"
)

// TestClientOptionsAreConsistent: names and Python keywords are unique,
// Python reaches an option only through a C setter, and the rows of one
// setter are adjacent (their keywords are its arguments, in order).
func TestClientOptionsAreConsistent(t *testing.T) {
	names, keywords, setters := map[string]bool{}, map[string]bool{}, map[string]int{}
	for i, o := range contract.ClientOptions {
		if names[o.Name] {
			t.Errorf("option %s: two rows", o.Name)
		}
		names[o.Name] = true
		if o.Go == "" || o.Type == "" || o.Default == "" || o.Doc == "" {
			t.Errorf("option %s: Go, Type, Default and Doc are required", o.Name)
		}
		if o.Python != "" {
			if keywords[o.Python] {
				t.Errorf("option %s: keyword %s is in two rows", o.Name, o.Python)
			}
			keywords[o.Python] = true
			if o.C == "" || o.PyValue == "" {
				t.Errorf("option %s: keyword %s needs a C setter and a default", o.Name, o.Python)
			}
		}
		if o.C == "" {
			continue
		}
		if !strings.HasPrefix(o.C, "smithycurl_options_set_") && !strings.HasPrefix(o.C, "smithycurl_options_add_") {
			t.Errorf("option %s: C setter %s is not smithycurl_options_set_* or _add_*", o.Name, o.C)
		}
		if last, ok := setters[o.C]; ok && last != i-1 {
			t.Errorf("option %s: the rows of %s are not adjacent", o.Name, o.C)
		}
		setters[o.C] = i
	}
}

// TestGoOptionsExist: every Go option of the table is a function of
// package client returning an Option, and every such function is in the
// table.
func TestGoOptionsExist(t *testing.T) {
	paths, err := filepath.Glob("../../client/*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	funcs := map[string]bool{}
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			if id, ok := fn.Type.Results.List[0].Type.(*ast.Ident); ok && id.Name == "Option" {
				funcs[fn.Name.Name] = true
			}
		}
	}
	if len(funcs) == 0 {
		t.Fatal("package client has no function returning an Option")
	}
	inTable := map[string]bool{}
	for _, o := range contract.ClientOptions {
		inTable[o.Go] = true
		if !funcs[o.Go] {
			t.Errorf("option %s: package client has no func %s(...) Option", o.Name, o.Go)
		}
	}
	for name := range funcs {
		if !inTable[name] {
			t.Errorf("client.%s is not in internal/contract's ClientOptions", name)
		}
	}
}

// TestCSettersDeclared: every C setter of the table is declared in
// include/smithycurl.h, and every smithycurl_options_set_* and _add_* the
// header declares is in the table.
func TestCSettersDeclared(t *testing.T) {
	h, err := os.ReadFile("../../include/smithycurl.h")
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^smithycurl_code (smithycurl_options_(?:set|add)_\w+)\(`).FindAllSubmatch(h, -1) {
		declared[string(m[1])] = true
	}
	inTable := map[string]bool{}
	for _, o := range contract.ClientOptions {
		if o.C == "" {
			continue
		}
		inTable[o.C] = true
		if !declared[o.C] {
			t.Errorf("option %s: include/smithycurl.h declares no %s", o.Name, o.C)
		}
	}
	for name := range declared {
		if !inTable[name] {
			t.Errorf("%s (include/smithycurl.h) is not in internal/contract's ClientOptions", name)
		}
	}
}
