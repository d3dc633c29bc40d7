package client

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/internal/jmes"
	"github.com/smithycurl/smithycurl/model"
)

// Waiter is one waiter of the service: a name from an operation's
// smithy.waiters#waitable trait and what it needs to run.
type Waiter struct {
	Name          string
	Operation     *model.Operation
	Documentation string
	Deprecated    bool
	// MinDelay and MaxDelay are the waiter's delays between attempts (the
	// specification's defaults, 2 s and 120 s, when the trait has none).
	MinDelay, MaxDelay time.Duration

	acceptors []acceptor
}

// Acceptor states.
const (
	stateSuccess = "success"
	stateFailure = "failure"
	stateRetry   = "retry"
)

type acceptor struct {
	state   string
	matcher matcher
	message *jmes.Expr // failure acceptors only; nil when none
}

// matcher is one of the specification's matchers: output and inputOutput
// (path, comparator, expected), success, or errorType.
type matcher struct {
	kind       string // "output", "inputOutput", "success", "errorType"
	path       *jmes.Expr
	comparator string
	expected   string
	success    bool
	errorType  string // the name part of the error type
}

func (m matcher) String() string {
	switch m.kind {
	case "success":
		return fmt.Sprintf("success %t", m.success)
	case "errorType":
		return "errorType " + m.errorType
	}
	return fmt.Sprintf("%s %s %s %q", m.kind, m.path, m.comparator, m.expected)
}

// The trait's value as JSON.
type waiterTrait struct {
	Documentation string `json:"documentation"`
	Acceptors     []struct {
		State   string `json:"state"`
		Message string `json:"message"`
		Matcher struct {
			Output      *pathMatcherTrait `json:"output"`
			InputOutput *pathMatcherTrait `json:"inputOutput"`
			Success     *bool             `json:"success"`
			ErrorType   *string           `json:"errorType"`
		} `json:"matcher"`
	} `json:"acceptors"`
	MinDelay   *int `json:"minDelay"`
	MaxDelay   *int `json:"maxDelay"`
	Deprecated bool `json:"deprecated"`
}

type pathMatcherTrait struct {
	Path       string `json:"path"`
	Expected   string `json:"expected"`
	Comparator string `json:"comparator"`
}

// Waiters lists the service's waiters, sorted by name. A waiter whose
// trait is malformed (an expression that does not parse, an unknown
// comparator) is listed with an error from Wait, not here: see Waiter.
func (c *Client) Waiters() []string {
	var names []string
	for _, op := range c.svc.Operations {
		if t, ok := op.Shape.Trait(model.TraitWaitable); ok {
			names = append(names, t.Keys()...)
		}
	}
	sort.Strings(names)
	return names
}

// Waiter returns the waiter called name (matched exactly, else ignoring
// case, as waiter names are unique regardless of case), compiled. An unknown
// name's error lists the service's waiters.
func (c *Client) Waiter(name string) (*Waiter, error) {
	var found *model.Operation
	var key string
	var value model.Node
	for _, op := range c.svc.Operations {
		t, ok := op.Shape.Trait(model.TraitWaitable)
		if !ok {
			continue
		}
		for i := 0; i < t.Len(); i++ {
			k, v := t.Entry(i)
			if k == name || (found == nil && strings.EqualFold(k, name)) {
				found, key, value = op, k, v
			}
		}
	}
	if found == nil {
		known := c.Waiters()
		if len(known) == 0 {
			return nil, fmt.Errorf("unknown waiter %q: service %s has no waiters", name, c.svc.Shape.ID.Name())
		}
		return nil, fmt.Errorf("unknown waiter %q; the waiters of %s are: %s", name, c.svc.Shape.ID.Name(), strings.Join(known, ", "))
	}
	w, err := compileWaiter(key, found, value)
	if err != nil {
		return nil, fmt.Errorf("waiter %s of %s: %w", key, found.Name, err)
	}
	return w, nil
}

// compileWaiter checks a waiter's trait value and compiles its paths.
func compileWaiter(name string, op *model.Operation, value model.Node) (*Waiter, error) {
	var t waiterTrait
	if err := json.Unmarshal([]byte(value.JSON()), &t); err != nil {
		return nil, fmt.Errorf("malformed trait: %w", err)
	}
	w := &Waiter{Name: name, Operation: op, Documentation: t.Documentation, Deprecated: t.Deprecated,
		MinDelay: 2 * time.Second, MaxDelay: 120 * time.Second}
	if t.MinDelay != nil {
		w.MinDelay = time.Duration(*t.MinDelay) * time.Second
	}
	if t.MaxDelay != nil {
		w.MaxDelay = time.Duration(*t.MaxDelay) * time.Second
	}
	if w.MinDelay < time.Second || w.MaxDelay < w.MinDelay {
		return nil, fmt.Errorf("minDelay %s and maxDelay %s: want 1 s <= minDelay <= maxDelay", w.MinDelay, w.MaxDelay)
	}
	if len(t.Acceptors) == 0 {
		return nil, fmt.Errorf("no acceptors")
	}
	for i, a := range t.Acceptors {
		acc, err := compileAcceptor(a.State, a.Message, a.Matcher.Output, a.Matcher.InputOutput, a.Matcher.Success, a.Matcher.ErrorType)
		if err != nil {
			return nil, fmt.Errorf("acceptor %d: %w", i+1, err)
		}
		w.acceptors = append(w.acceptors, acc)
	}
	return w, nil
}

func compileAcceptor(state, message string, output, inputOutput *pathMatcherTrait, success *bool, errorType *string) (acceptor, error) {
	a := acceptor{state: state}
	switch state {
	case stateSuccess, stateFailure, stateRetry:
	default:
		return a, fmt.Errorf("unknown state %q", state)
	}
	set := 0
	path := func(kind string, p *pathMatcherTrait) error {
		set++
		switch p.Comparator {
		case "stringEquals", "booleanEquals", "allStringEquals", "anyStringEquals":
		default:
			return fmt.Errorf("%s: unknown comparator %q", kind, p.Comparator)
		}
		if p.Comparator == "booleanEquals" && p.Expected != "true" && p.Expected != "false" {
			return fmt.Errorf("%s: booleanEquals expects \"true\" or \"false\", not %q", kind, p.Expected)
		}
		e, err := jmes.Compile(p.Path)
		if err != nil {
			return fmt.Errorf("%s: %w", kind, err)
		}
		a.matcher = matcher{kind: kind, path: e, comparator: p.Comparator, expected: p.Expected}
		return nil
	}
	if output != nil {
		if err := path("output", output); err != nil {
			return a, err
		}
	}
	if inputOutput != nil {
		if err := path("inputOutput", inputOutput); err != nil {
			return a, err
		}
	}
	if success != nil {
		set++
		a.matcher = matcher{kind: "success", success: *success}
	}
	if errorType != nil {
		set++
		// An absolute shape id is matched on its name part.
		name := *errorType
		if i := strings.LastIndexByte(name, '#'); i >= 0 {
			name = name[i+1:]
		}
		a.matcher = matcher{kind: "errorType", errorType: name}
	}
	if set != 1 {
		return a, fmt.Errorf("a matcher sets exactly one of output, inputOutput, success, errorType (%d set)", set)
	}
	if message != "" {
		e, err := jmes.Compile(message)
		if err != nil {
			return a, fmt.Errorf("message: %w", err)
		}
		a.message = e
	}
	return a, nil
}

// attemptResult is what one attempt gave, as the matchers see it.
type attemptResult struct {
	input, output any // the JMESPath data of the input and output (success only)
	err           *Error
}

// matches reports whether m matches r.
func (m matcher) matches(r attemptResult) bool {
	switch m.kind {
	case "success":
		return (r.err == nil) == m.success
	case "errorType":
		return r.err != nil && errorTypeMatches(r.err, m.errorType)
	case "output":
		return r.err == nil && m.compare(r.output)
	case "inputOutput":
		return r.err == nil && m.compare(map[string]any{"input": r.input, "output": r.output})
	}
	return false
}

// errorTypeMatches: the error's shape name, or the error code the service
// sent (its name part: "ns#Name", "Name:http://..." and "Name" alike).
func errorTypeMatches(e *Error, name string) bool {
	if e.Kind != KindService {
		return false
	}
	if e.Shape != "" && e.Shape.Name() == name {
		return true
	}
	code := e.Code
	if i := strings.LastIndexByte(code, '#'); i >= 0 {
		code = code[i+1:]
	}
	if i := strings.IndexByte(code, ':'); i >= 0 {
		code = code[:i]
	}
	return code != "" && code == name
}

// compare evaluates the path on data and applies the comparator. An
// expression that fails at run time (a function given the wrong type)
// does not match.
func (m matcher) compare(data any) bool {
	v, err := m.path.Search(data)
	if err != nil {
		return false
	}
	switch m.comparator {
	case "stringEquals":
		s, ok := v.(string)
		return ok && s == m.expected
	case "booleanEquals":
		b, ok := v.(bool)
		return ok && b == (m.expected == "true")
	case "allStringEquals", "anyStringEquals":
		items, ok := v.([]any)
		if !ok || len(items) == 0 {
			return false
		}
		all := m.comparator == "allStringEquals"
		for _, it := range items {
			s, ok := it.(string)
			eq := ok && s == m.expected
			if all && !eq {
				return false
			}
			if !all && eq {
				return true
			}
		}
		return all
	}
	return false
}

// match runs the acceptors in order: the first that matches, or nil.
func (w *Waiter) match(r attemptResult) (int, *acceptor) {
	for i := range w.acceptors {
		if w.acceptors[i].matcher.matches(r) {
			return i, &w.acceptors[i]
		}
	}
	return -1, nil
}

// failureMessage is the acceptor's message expression evaluated on the
// output: a string, or strings joined with "; " ("" when none).
func (a *acceptor) failureMessage(r attemptResult) string {
	if a.message == nil || r.err != nil {
		return ""
	}
	v, err := a.message.Search(r.output)
	if err != nil {
		return ""
	}
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, it := range v {
			if s, ok := it.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "; ")
	}
	return ""
}
