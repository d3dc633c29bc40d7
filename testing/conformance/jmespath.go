package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"time"

	"github.com/smithycurl/smithycurl/internal/jmes"
)

// JMESPath runs the JMESPath compliance tests (jmespath.test, in
// jmespath-compliance/) through internal/jmes: every case with a "result"
// must give that value, every case with an "error" must fail (a "syntax"
// error when compiling). The benchmark cases carry no expected value; they
// are counted in a note, not as cases.
func JMESPath(shared string) Result {
	r := Result{Suite: "jmespath"}
	dir := filepath.Join(shared, "jmespath-compliance")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		r.fail("load", "no compliance files in %s", dir)
		return r
	}
	sort.Strings(files)
	skip := readExclusions("jmespath.tsv")
	bench := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			r.fail(filepath.Base(f), "%v", err)
			continue
		}
		var groups []struct {
			Given json.RawMessage `json:"given"`
			Cases []struct {
				Expression string           `json:"expression"`
				Result     *json.RawMessage `json:"result"`
				Error      string           `json:"error"`
				Bench      string           `json:"bench"`
			} `json:"cases"`
		}
		if err := json.Unmarshal(data, &groups); err != nil {
			r.fail(filepath.Base(f), "decode: %v", err)
			continue
		}
		for gi, g := range groups {
			var given any
			if err := json.Unmarshal(g.Given, &given); err != nil {
				r.fail(filepath.Base(f), "group %d: given: %v", gi, err)
				continue
			}
			for ci, c := range g.Cases {
				if c.Bench != "" {
					bench++
					continue
				}
				id := fmt.Sprintf("%s#%d.%d %q", filepath.Base(f), gi, ci, c.Expression)
				if _, ok := skip[id]; ok {
					r.Skipped++
					continue
				}
				err := guard(10*time.Second, func() error { return jmespathCase(given, c.Expression, c.Result, c.Error) })
				if err != nil {
					r.fail(id, "%v", err)
					continue
				}
				r.Passed++
			}
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("jmespath: %d benchmark expressions (no expected value) not counted", bench))
	return r
}

// jmespathCase runs one compliance case: want is the expected result (nil
// for an error case), wantErr the expected error kind.
func jmespathCase(given any, expr string, want *json.RawMessage, wantErr string) error {
	e, err := jmes.Compile(expr)
	var syn *jmes.SyntaxError
	if err != nil && !errors.As(err, &syn) {
		return fmt.Errorf("compile returned a %T: %v", err, err)
	}
	if wantErr != "" {
		if wantErr == "syntax" {
			if err == nil {
				return fmt.Errorf("want a syntax error, compiled")
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("want a %s error at run time, got %v", wantErr, err)
		}
		if got, err := e.Search(given); err == nil {
			return fmt.Errorf("want a %s error, got %s", wantErr, jsonText(got))
		}
		return nil
	}
	if err != nil {
		return err
	}
	got, err := e.Search(given)
	if err != nil {
		return err
	}
	var w any
	if want != nil {
		if err := json.Unmarshal(*want, &w); err != nil {
			return fmt.Errorf("expected result: %v", err)
		}
	}
	// Compare through JSON so that the library's own number and slice
	// types do not matter.
	var g any
	if err := json.Unmarshal([]byte(jsonText(got)), &g); err != nil {
		return fmt.Errorf("result %v is not JSON: %v", got, err)
	}
	if !reflect.DeepEqual(g, w) {
		return fmt.Errorf("got %s, want %s", jsonText(got), jsonText(w))
	}
	return nil
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}
