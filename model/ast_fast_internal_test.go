package model

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// fastReaderCases are JSON ASTs that the fast reader reads in ways of its
// own (keys in other orders, escapes, every shape property).
var fastReaderCases = []string{
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"smithy.api#String"}}}}}`,
	`{"shapes":{"a.b#S":{"type":"string"}},"metadata":{"k":[1,{"x":null}],"j":"v"},"smithy":"1.0"}`,
	"\n\t{ \"smithy\" : \"2\" ,\r\n \"shapes\" : { \"a.b#S\" : { \"type\" : \"structure\" , \"members\" : { } , \"traits\" : { } } } }\n",
	`{"smithy":"2.0","shapes":{}}`,
	"{\"smithy\":\n\"2.0\"\n,\"metadata\":\n{\"k\"\n:\n[\n1\n]},\"shapes\"\n:\n{\"a.b#S\"\n:\n{\"type\"\n:\n\"structure\"\n,\n\"members\":\n{\"x\":\n{\"traits\":\n" +
		"{\"smithy.api#documentation\":\n\"d\"\n,\"smithy.api#required\"\n:\n{\n}},\n\"target\":\n\"smithy.api#String\"}}\n,\"mixins\":\n[\n{\"target\":\n\"a.b#M\"}\n]}}}\n",
	`{"smithy":"2.0","metadata":{}}`,
	`{"smithy":"2.0"}`,
	`{"smith\u0079":"2.0","shapes":{"a.b#S\u0031":{"type":"structure","members":{"\u0078":{"traits":{"smithy.api#documentation":"\"hi\"\n"},"target":"smithy.api#String"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#L":{"type":"list","member":{"target":"a.b#S"},"traits":{"smithy.api#length":{"min":1}}},"a.b#S":{"type":"string"}}}`,
	`{"smithy":"2.0","shapes":{"a.b#M":{"type":"map","value":{"target":"a.b#S"},"key":{"target":"a.b#S"}},"a.b#S":{"type":"string"}}}`,
	`{"smithy":"2.0","shapes":{"a.b#E":{"type":"enum","members":{"A":{"target":"smithy.api#Unit","traits":{"smithy.api#enumValue":"a"}}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#Svc":{"type":"service","version":"2020","operations":[{"target":"a.b#Op"}],"resources":[],"errors":[{"target":"a.b#Err"}],
		"rename":{"a.c#Foo":"Bar","a.d#Foo":"Baz"},"traits":{"a.b#t":{"x":[1,2,{"y":true}]}}},
		"a.b#Op":{"type":"operation","input":{"target":"a.b#In"},"output":{"target":"smithy.api#Unit"},"errors":[]},
		"a.b#R":{"type":"resource","identifiers":{"id":{"target":"smithy.api#String"}},"properties":{"p":{"target":"smithy.api#String"}},
		"create":{"target":"a.b#Op"},"put":{"target":"a.b#Op"},"read":{"target":"a.b#Op"},"update":{"target":"a.b#Op"},"delete":{"target":"a.b#Op"},
		"list":{"target":"a.b#Op"},"operations":[{"target":"a.b#Op"}],"collectionOperations":[{"target":"a.b#Op"}],"resources":[{"target":"a.b#R2"}]},
		"a.b#M":{"type":"structure","mixins":[{"target":"a.b#Mx"}],"members":{}},
		"a.b#Mx":{"type":"structure","traits":{"smithy.api#mixin":{}},"members":{"a":{"target":"smithy.api#String"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"string","traits":{"smithy.api#documentation":"\ud800"}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"apply","traits":{"smithy.api#sensitive":{}}},"a.b#S$m":{"type":"apply"},"a.b#T":{"type":"apply","traits":{}}}}`,
}

// fastReaderGivesUp are JSON ASTs the fast reader leaves to the full reader:
// each has a problem the full reader reports, or a form only it reads.
var fastReaderGivesUp = []string{
	`{"smithy":"2.0","shapes":{"a.b#R":{"type":"resource","rename":{"a.c#Foo":"Bar"}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"traits":{},"type":"structure"}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"smithy.api#String","target":"smithy.api#Integer"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","traits":{},"traits":{"smithy.api#sensitive":{}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"apply","traits":{"smithy.api#sensitive":{}},"x":1}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"apply","members":{}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","extra":1}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"nope"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"#S"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"a.b#S"},"y":{"target":"a.b#1"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"a.b#S"},"y":{"target":"a..b#S"}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S$m":{"type":"string"}}}`,
	`{"smithy":"2.0","shapes":{"a.b#O":{"type":"operation","input":{"target":"a.b#I","x":1}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#O":{"type":"service","version":2}}}`,
	`{"smithy":"3.0","shapes":{}}`,
	`{"smithy":"2.0","smithy":"2.0"}`,
	`{"smithy":"2.0","other":{}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"string"}}} x`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"string","traits":{"smithy.api#length":{"min":01}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"string","traits":{"bad":{}}}}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"string"},}}`,
	`{"smithy":"2.0","shapes":{"a.b#S":{"type":"string"}`,
	`[]`,
	``,
}

// checkFastReader fails when the fast reader reads src differently from the
// full reader; it reports whether the fast reader read it.
func checkFastReader(t *testing.T, name, src string) bool {
	t.Helper()
	fast := readASTFast(name, src)
	root, err := ParseJSONNode(src)
	full := readAST(name, src, root, err)
	if fast == nil {
		return false
	}
	if len(full.events) > 0 {
		t.Errorf("%s: the fast reader read a file the full reader reports on: %v", name, full.events)
	} else if !reflect.DeepEqual(fast, full) {
		t.Errorf("%s: the fast reader read\n%#v\nthe full reader\n%#v", name, fast, full)
	}
	return true
}

// TestASTFastReaderAgrees: the fast JSON AST reader gives exactly the draft
// of the full reader for every file it reads (the inline cases, every JSON
// AST of the shared data), and reads the AWS models itself.
func TestASTFastReaderAgrees(t *testing.T) {
	for _, src := range fastReaderCases {
		if !checkFastReader(t, "case.json", src) {
			t.Errorf("the fast reader gave up on %s", src)
		}
	}
	for _, src := range fastReaderGivesUp {
		if checkFastReader(t, "case.json", src) {
			t.Errorf("the fast reader read %s", src)
		}
	}
	var files, read int
	for _, dir := range []string{"models", "idl-conformance"} {
		root := shareddata.Path(t, dir)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
				return err
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			files++
			if checkFastReader(t, p, string(src)) {
				read++
			} else if dir == "models" {
				t.Errorf("%s: the fast reader gave up on an AWS model", p)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("the fast reader read %d of %d JSON files", read, files)
}

// FuzzASTFastReader: for any text, the fast JSON AST reader gives up or
// reads exactly what the full reader reads.
func FuzzASTFastReader(f *testing.F) {
	for _, src := range fastReaderCases {
		f.Add([]byte(src))
	}
	for _, src := range fastReaderGivesUp {
		f.Add([]byte(src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFastReader(t, "fuzz.json", string(data))
	})
}
