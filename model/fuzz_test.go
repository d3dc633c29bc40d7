package model_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// FuzzParseAST feeds arbitrary JSON AST documents to the loader: it must
// return a model or errors, never panic or hang.
func FuzzParseAST(f *testing.F) {
	f.Add([]byte(`{"smithy":"2.0","shapes":{"a.b#S":{"type":"structure","members":{"x":{"target":"smithy.api#String"}}}}}`))
	f.Add([]byte(`{"smithy":"2.0","shapes":{"a.b#S":{"type":"service","operations":[{"target":"a.b#O"}]},"a.b#O":{"type":"operation"}}}`))
	f.Add([]byte(`{"smithy":"1.0","metadata":{"k":[1,2]},"shapes":{"a.b#L":{"type":"list","member":{"target":"a.b#L"}}}}`))
	f.Add([]byte(`{"smithy":"2.0","shapes":{"a.b#M":{"type":"structure","mixins":[{"target":"a.b#M"}],"traits":{"smithy.api#mixin":{}}}}}`))
	// The JSON AST error cases of the shared data are seeds too.
	files, _ := filepath.Glob(shareddata.Path(f, "idl-conformance", "errorfiles", "loader") + "/*.json")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		l := model.NewLoader()
		l.AddSource("fuzz.json", data)
		m, _, err := l.Load(context.Background())
		if err == nil {
			m.MarshalAST()
			for _, id := range m.Services() {
				m.Service(id)
			}
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("load took %s", d)
		}
	})
}
