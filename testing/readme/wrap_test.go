package readme

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// goWrapOptions say how a Go fragment is wrapped.
type goWrapOptions struct {
	run        bool   // package main with func main; else a function of package readme (built, not linked)
	todoImport string // import path of the package `smithycurl gen go --package todo` wrote
}

// goPackages are the packages a fragment may name without importing them.
var goPackages = map[string]string{
	"context": "context", "errors": "errors", "fmt": "fmt", "io": "io", "os": "os",
	"strings": "strings", "time": "time",
	"client":     shareddata.Module + "/client",
	"model":      shareddata.Module + "/model",
	"protocol":   shareddata.Module + "/protocol",
	"transport":  shareddata.Module + "/transport",
	"typed":      shareddata.Module + "/client/typed",
	"s3transfer": shareddata.Module + "/client/s3transfer",
	"stub":       shareddata.Module + "/client/stub",
}

// goPlaceholders are the variables a fragment may use without declaring
// them, declared at package level (never "declared and not used").
var goPlaceholders = map[string]struct {
	decl string
	pkgs []string
}{
	"ctx":   {"ctx = context.Background()", []string{"context"}},
	"token": {`token = "secret-token"`, nil},
	"m":     {"m *model.Model", []string{"model"}},
	"out":   {"out io.Writer = io.Discard", []string{"io"}},
	"c":     {"c *client.Client", []string{"client"}},
}

// goSource returns the Go file of a block: a whole file as it is, a
// fragment wrapped, with //line comments that make the compiler's
// positions the README's.
func goSource(b block, o goWrapOptions) (string, error) {
	body := strings.ReplaceAll(b.text, "{ ... }", "{}")
	lineDirective := fmt.Sprintf("//line README.md:%d\n", b.line+1)
	if strings.HasPrefix(strings.TrimSpace(body), "package ") {
		return lineDirective + body, nil
	}
	head := "package main\n\nfunc main() {\n" + lineDirective
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+body+"\n}\n", 0)
	if err != nil {
		return "", err
	}
	pkgs, vars := freeNames(f, o)
	fn := f.Decls[0].(*ast.FuncDecl).Body
	ins, atEnd := useInsertions(fn, o.run)
	file := fset.File(f.Pos())
	sort.Slice(ins, func(i, j int) bool { return ins[i].at > ins[j].at })
	for _, in := range ins {
		at := file.Offset(in.at) - len(head)
		body = body[:at] + in.text + body[at:]
	}

	var s strings.Builder
	pkgName, fnName := "readme", "snippet"
	if o.run {
		pkgName, fnName = "main", "main"
	}
	fmt.Fprintf(&s, "// Code generated from README.md line %d by testing/readme. DO NOT EDIT.\n\npackage %s\n\nimport (\n", b.line, pkgName)
	var paths []string
	for name := range pkgs {
		path := goPackages[name]
		if name == "todo" {
			path = o.todoImport
		}
		paths = append(paths, path)
	}
	sort.Slice(paths, func(i, j int) bool { // the standard library first
		si, sj := !strings.Contains(paths[i], "."), !strings.Contains(paths[j], ".")
		if si != sj {
			return si
		}
		return paths[i] < paths[j]
	})
	for _, path := range paths {
		fmt.Fprintf(&s, "\t%q\n", path)
	}
	s.WriteString(")\n\nvar (\n")
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		decl := goPlaceholders[name].decl
		if name == "c" && pkgs["todo"] {
			decl = `c, _ = todo.New("http://127.0.0.1:8081")`
		}
		fmt.Fprintf(&s, "\t%s\n", decl)
	}
	fmt.Fprintf(&s, ")\n\nfunc %s() {\n%s%s\n", fnName, lineDirective, body)
	if atEnd != "" {
		fmt.Fprintf(&s, "//line wrapper.go:1\n%s\n", atEnd)
	}
	s.WriteString("}\n")
	return s.String(), nil
}

// freeNames returns the packages and placeholder variables a wrapped
// fragment uses without declaring them.
func freeNames(f *ast.File, o goWrapOptions) (pkgs, vars map[string]bool) {
	unresolved := map[string]bool{}
	for _, id := range f.Unresolved {
		unresolved[id.Name] = true
	}
	pkgs, vars = map[string]bool{}, map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && unresolved[id.Name] {
				if _, known := goPackages[id.Name]; known || (id.Name == "todo" && o.todoImport != "") {
					pkgs[id.Name] = true
				}
			}
		}
		return true
	})
	for name := range unresolved {
		if _, ok := goPlaceholders[name]; ok && !pkgs[name] {
			vars[name] = true
		}
	}
	for name := range vars {
		if name == "c" && pkgs["todo"] {
			continue // c is then the generated client
		}
		for _, pkg := range goPlaceholders[name].pkgs {
			pkgs[pkg] = true
		}
	}
	return pkgs, vars
}

// insertion is text put into a fragment at a position.
type insertion struct {
	at   token.Pos
	text string
}

// useInsertions makes every variable a fragment declares used once more
// ("_ = x"), in the block that declares it, as a reader's program would
// use it; those of the function's own block are returned as a line for its
// end. With run, an error assigned at the function's level stops the
// program: the README's runnable examples show calls that succeed.
func useInsertions(fn *ast.BlockStmt, run bool) (ins []insertion, atEnd string) {
	uses := func(names []string) string {
		var s strings.Builder
		for _, n := range names {
			fmt.Fprintf(&s, " _ = %s;", n)
		}
		return s.String()
	}
	defined := func(lhs ...ast.Expr) (names []string) {
		for _, e := range lhs {
			if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
				names = append(names, id.Name)
			}
		}
		return names
	}
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			var names []string
			for _, st := range n.List {
				switch st := st.(type) {
				case *ast.AssignStmt:
					if st.Tok == token.DEFINE {
						names = append(names, defined(st.Lhs...)...)
					}
					if run && n == fn && slices.Contains(defined(st.Lhs...), "err") {
						ins = append(ins, insertion{st.End(), "; if err != nil { panic(err) }"})
					}
				case *ast.DeclStmt:
					if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
						for _, spec := range g.Specs {
							for _, id := range spec.(*ast.ValueSpec).Names {
								names = append(names, defined(id)...)
							}
						}
					}
				}
			}
			if n == fn {
				atEnd = uses(names)
			} else if len(names) > 0 {
				ins = append(ins, insertion{n.Rbrace, ";" + uses(names) + " "})
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				ins = append(ins, insertion{n.Body.Lbrace + 1, uses(defined(n.Key, n.Value))})
			}
		case *ast.IfStmt:
			if a, ok := n.Init.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
				ins = append(ins, insertion{n.Body.Lbrace + 1, uses(defined(a.Lhs...))})
			}
		}
		return true
	})
	return ins, atEnd
}

// cPrelude declares what the README's C fragments use undeclared.
const cPrelude = `#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "smithycurl.h"
%s
/* The README's placeholders: zero, so C fragments only compile. */
smithycurl_loader *ld;
smithycurl_model *model;
smithycurl_options *opts;
smithycurl_client *client;
smithycurl_result *result;
smithycurl_cancel_token *cancel_token_or_NULL, *cancel_or_NULL;
const char *endpoint, *in;
size_t in_len, len;
smithycurl_code rc;
void *tag, *my_tag, *user_data;

static void done_fn(void *data, smithycurl_code code, smithycurl_result *res) {
    (void)data;
    (void)code;
    smithycurl_result_free(res);
}

int main(void) {
#line %d "README.md"
%s
    return 0;
}
`

var (
	cMainRE  = regexp.MustCompile(`\bmain\s*\(`)
	cTodoRE  = regexp.MustCompile(`\btodo_`)
	cElision = strings.NewReplacer("...;", "(void)0;")
)

// cSource returns the C file of a block and whether it needs the Todos
// client of smithycurl gen c (gen/todo.h, gen/todo.c).
func cSource(b block) (src string, typed bool) {
	body := cElision.Replace(b.text)
	typed = cTodoRE.MatchString(body)
	if cMainRE.MatchString(body) {
		return fmt.Sprintf("#line %d \"README.md\"\n%s", b.line+1, body), typed
	}
	include := ""
	if typed {
		include = `#include "todo.h"`
	}
	return fmt.Sprintf(cPrelude, include, b.line+1, body), typed
}

// TestGoSource covers the wrapping of a Go fragment.
func TestGoSource(t *testing.T) {
	b := block{line: 10, lang: "go", text: "out, err := c.Call(ctx, \"X\", nil)\nfor p, err := range c.Paginate(ctx, \"Y\", nil) { ... }\n"}
	src, err := goSource(b, goWrapOptions{run: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"package main\n", "\t\"context\"\n", "\t\"" + shareddata.Module + "/client\"\n",
		"\tc *client.Client\n", "\tctx = context.Background()\n", "func main() {\n//line README.md:11\n",
		"; if err != nil { panic(err) }", "{ _ = p; _ = err;}", "\n _ = out; _ = err;\n",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the wrapped fragment lacks %q:\n%s", want, src)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "", src, 0); err != nil {
		t.Errorf("%v:\n%s", err, src)
	}
}
