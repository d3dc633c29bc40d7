package model_test

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// idHomes are the folders whose non-test Go code may spell the shape ids
// of a namespace; everywhere else uses their constants.
var idHomes = map[string]string{
	"smithy.api":         "model",
	"smithy.waiters":     "model",
	"aws.auth":           "model",
	"aws.protocols":      "protocol",
	"aws.customizations": "protocol",
	"smithy.protocols":   "protocol",
	"alloy":              "protocol",
	"smithy.rules":       "endpoints",
}

// idLiteralAllowed are the files, relative to the module root, that may
// spell such an id anyway, with the reason.
var idLiteralAllowed = map[string]string{}

// idLiteral is a string literal that is a shape id, or a namespace and
// '#' to which a name is appended.
var idLiteral = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_.]*)#[A-Za-z0-9_]*$`)

// TestTraitIDLiterals fails on a string literal such as "smithy.api#required"
// in a non-test Go file outside the folder that holds its constant.
func TestTraitIDLiterals(t *testing.T) {
	root := ".."
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			// Not Go's packages (testdata, _ and . folders) or build output.
			name := d.Name()
			if rel != "." && (name == "testdata" || name == "node_modules" || rel == "build" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || idLiteralAllowed[rel] != "" {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile(rel, -1, len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok != token.STRING {
				continue
			}
			v, err := strconv.Unquote(lit)
			if err != nil {
				continue
			}
			m := idLiteral.FindStringSubmatch(v)
			if m == nil {
				continue
			}
			if home, ok := idHomes[m[1]]; ok && !strings.HasPrefix(rel, home+"/") {
				t.Errorf("%s: %s: use the constant from %s/ instead", fset.Position(pos), lit, home)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 100 {
		t.Fatalf("read %d Go files: not the module", files)
	}
}
