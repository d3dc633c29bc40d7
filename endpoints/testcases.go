package endpoints

import (
	"fmt"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// CaseResult is the outcome of one smithy.rules#endpointTests case.
type CaseResult struct {
	Name string // the case's documentation, or its index
	Err  error  // nil when the case passed
}

// RunTestCases runs the service's smithy.rules#endpointTests cases: each
// case's params directly, then each of its operationInputs through the
// built-ins, client parameters and operation bindings. It returns nil when
// the service carries no tests.
func (s *Service) RunTestCases(svc *model.Service) []CaseResult {
	tests, ok := svc.Shape.Trait(TraitTests)
	if !ok {
		return nil
	}
	cases, _ := tests.Get("testCases")
	var out []CaseResult
	for i, tc := range cases.Items() {
		name := str(tc, "documentation")
		if name == "" {
			name = fmt.Sprintf("case %d", i)
		}
		out = append(out, CaseResult{Name: fmt.Sprintf("#%d %s", i, name), Err: s.runCase(svc, tc)})
	}
	return out
}

func (s *Service) runCase(svc *model.Service, tc model.Node) error {
	expect, _ := tc.Get("expect")
	params, _ := tc.Get("params")
	p := s.RuleSet.NewParams()
	for i := 0; i < params.Len(); i++ {
		k, v := params.Entry(i)
		val, err := nodeValue(v)
		if err != nil {
			return fmt.Errorf("params.%s: %v", k, err)
		}
		if err := p.Set(k, val); err != nil {
			return err
		}
	}
	ep, err := s.RuleSet.Resolve(p)
	if err := checkExpect(expect, ep, err); err != nil {
		return fmt.Errorf("params: %w", err)
	}
	inputs, _ := tc.Get("operationInputs")
	for j, in := range inputs.Items() {
		if err := s.runOperationInput(svc, in, expect); err != nil {
			return fmt.Errorf("operationInputs[%d] (%s): %w", j, str(in, "operationName"), err)
		}
	}
	return nil
}

func (s *Service) runOperationInput(svc *model.Service, in, expect model.Node) error {
	op, err := svc.Operation(str(in, "operationName"))
	if err != nil {
		return err
	}
	p := s.RuleSet.NewParams()
	set := func(field string, byBuiltIn bool) error {
		n, _ := in.Get(field)
		for i := 0; i < n.Len(); i++ {
			k, v := n.Entry(i)
			val, err := nodeValue(v)
			if err != nil {
				return fmt.Errorf("%s.%s: %v", field, k, err)
			}
			if byBuiltIn {
				if _, err := p.SetBuiltIn(k, val); err != nil {
					return err
				}
			} else if _, ok := s.RuleSet.byName[k]; ok {
				if err := p.Set(k, val); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := set("builtInParams", true); err != nil {
		return err
	}
	if err := set("clientParams", false); err != nil {
		return err
	}
	opParams, _ := in.Get("operationParams")
	if err := s.Operation(op).Apply(p, opParams); err != nil {
		return err
	}
	ep, err := s.RuleSet.Resolve(p)
	return checkExpect(expect, ep, err)
}

func checkExpect(expect model.Node, ep *Endpoint, err error) error {
	if want, ok := expect.Get("error"); ok {
		re, isRule := err.(*RuleError)
		switch {
		case err == nil:
			return fmt.Errorf("want error %q, got endpoint %s", want.Str(), ep.URL)
		case !isRule:
			return fmt.Errorf("want error %q, got %v", want.Str(), err)
		case re.Message != want.Str():
			return fmt.Errorf("error %q, want %q", re.Message, want.Str())
		}
		return nil
	}
	if err != nil {
		return err
	}
	we, _ := expect.Get("endpoint")
	if u := str(we, "url"); u != ep.URL {
		return fmt.Errorf("url %q, want %q", ep.URL, u)
	}
	wh, _ := we.Get("headers")
	if got := headersNode(ep.Headers); !nodeOrEmpty(wh).Equal(got) {
		return fmt.Errorf("headers %s, want %s", got.JSON(), wh.JSON())
	}
	wp, _ := we.Get("properties")
	if !nodeOrEmpty(wp).Equal(ep.Properties) {
		return fmt.Errorf("properties %s, want %s", ep.Properties.JSON(), wp.JSON())
	}
	return nil
}

func nodeOrEmpty(n model.Node) model.Node {
	if n.IsNull() {
		return model.Object()
	}
	return n
}

func headersNode(h map[string][]string) model.Node {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var b model.ObjectBuilder
	for _, k := range names {
		vals := make([]model.Node, len(h[k]))
		for i, v := range h[k] {
			vals[i] = model.String(v)
		}
		b.Set(k, model.Array(vals...))
	}
	return b.Build()
}

// String describes an endpoint: URL, headers and properties as JSON.
func (e *Endpoint) String() string {
	var b strings.Builder
	b.WriteString(e.URL)
	if len(e.Headers) > 0 {
		b.WriteString(" headers=")
		b.WriteString(headersNode(e.Headers).JSON())
	}
	if e.Properties.Len() > 0 {
		b.WriteString(" properties=")
		b.WriteString(e.Properties.JSON())
	}
	return b.String()
}
