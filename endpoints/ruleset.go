package endpoints

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/model"
)

// Bounds on a rule set's shape, so that a hostile or broken model is a
// load error rather than a stack overflow.
const (
	maxRuleDepth = 64
	maxExprDepth = 64
)

// Param is one parameter of a rule set.
type Param struct {
	Name     string
	Type     string // "string", "boolean" or "stringArray"
	BuiltIn  string // e.g. "AWS::Region" ("" for none)
	Required bool
	Default  Value // null when none
	Doc      string
}

// RuleSet is a compiled rule set. It is immutable and safe for concurrent use.
type RuleSet struct {
	params    []Param
	byName    map[string]int
	byBuiltIn map[string]int
	rules     []*rule
	bdd       *bdd // the BDD form, used instead of rules when set
	nslots    int  // parameters then variables
	frames    sync.Pool
}

// Endpoint is a resolved endpoint.
type Endpoint struct {
	URL        string
	Headers    map[string][]string // nil when the rule gives none
	Properties model.Node          // an object (empty when the rule gives none)
}

// RuleError is the result of an error rule, or of rules that match nothing.
type RuleError struct{ Message string }

func (e *RuleError) Error() string { return "endpoint rules: " + e.Message }

// Params holds the parameter values of one resolution.
type Params struct {
	rs   *RuleSet
	vals []Value
}

// Params returns the rule set's parameters in name order.
func (rs *RuleSet) Params() []Param { return rs.params }

// Param returns the parameter called name.
func (rs *RuleSet) Param(name string) (Param, bool) {
	i, ok := rs.byName[name]
	if !ok {
		return Param{}, false
	}
	return rs.params[i], true
}

// ParamForBuiltIn returns the parameter bound to a built-in ("AWS::Region").
func (rs *RuleSet) ParamForBuiltIn(builtIn string) (Param, bool) {
	i, ok := rs.byBuiltIn[builtIn]
	if !ok {
		return Param{}, false
	}
	return rs.params[i], true
}

// NewParams returns an empty parameter set (defaults apply at Resolve).
func (rs *RuleSet) NewParams() *Params {
	return &Params{rs: rs, vals: make([]Value, len(rs.params))}
}

// Clone returns a copy of p.
func (p *Params) Clone() *Params {
	return &Params{rs: p.rs, vals: append([]Value(nil), p.vals...)}
}

// Set sets parameter name. An unknown name or a value of the wrong type is
// an error; a null value unsets the parameter.
func (p *Params) Set(name string, v Value) error {
	i, ok := p.rs.byName[name]
	if !ok {
		return fmt.Errorf("endpoint rules: no parameter %q (the rule set has %s)", name, strings.Join(p.rs.names(), ", "))
	}
	return p.setIndex(i, v)
}

// SetBuiltIn sets the parameter bound to builtIn; it reports false when the
// rule set has none.
func (p *Params) SetBuiltIn(builtIn string, v Value) (bool, error) {
	i, ok := p.rs.byBuiltIn[builtIn]
	if !ok {
		return false, nil
	}
	return true, p.setIndex(i, v)
}

// Get returns the value of parameter name (null when unset).
func (p *Params) Get(name string) Value {
	if i, ok := p.rs.byName[name]; ok {
		return p.vals[i]
	}
	return Null
}

func (p *Params) setIndex(i int, v Value) error {
	prm := &p.rs.params[i]
	if v.kind != NullKind && !fitsParam(prm.Type, v) {
		return fmt.Errorf("endpoint rules: parameter %s is a %s, not a %s", prm.Name, prm.Type, v.kind)
	}
	p.vals[i] = v
	return nil
}

func fitsParam(typ string, v Value) bool {
	switch typ {
	case "string":
		return v.kind == StringKind
	case "boolean":
		return v.kind == BoolKind
	case "stringArray":
		if v.kind != ArrayKind {
			return false
		}
		for _, e := range v.arr() {
			if e.kind != StringKind {
				return false
			}
		}
		return true
	}
	return false
}

func (rs *RuleSet) names() []string {
	out := make([]string, len(rs.params))
	for i, p := range rs.params {
		out[i] = p.Name
	}
	return out
}

// frame is the state of one resolution: parameter and variable slots.
type frame struct{ slots []Value }

// Resolve evaluates the rules with p (nil for no parameters). Rule errors
// and missing required parameters are *RuleError.
func (rs *RuleSet) Resolve(p *Params) (*Endpoint, error) {
	if p != nil && p.rs != rs {
		return nil, fmt.Errorf("endpoint rules: parameters of another rule set")
	}
	f, _ := rs.frames.Get().(*frame)
	if f == nil {
		f = &frame{slots: make([]Value, rs.nslots)}
	}
	defer rs.putFrame(f)
	slots := f.slots
	if p != nil {
		copy(slots, p.vals)
	}
	for i := range rs.params {
		prm := &rs.params[i]
		if slots[i].kind == NullKind {
			slots[i] = prm.Default
			if prm.Required && prm.Default.kind == NullKind {
				return nil, &RuleError{Message: "parameter " + prm.Name + " is required"}
			}
		}
	}
	var ep *Endpoint
	var err error
	var ok bool
	if rs.bdd != nil {
		ep, err, ok = rs.bdd.eval(f)
	} else {
		ep, err, ok = evalRules(rs.rules, f)
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &RuleError{Message: "no rule matched the parameters"}
	}
	return ep, nil
}

// putFrame clears a frame (no value outlives its resolution) and keeps it
// for the next one.
func (rs *RuleSet) putFrame(f *frame) {
	clear(f.slots)
	rs.frames.Put(f)
}

type ruleKind uint8

const (
	endpointRule ruleKind = iota
	errorRule
	treeRule
)

type cond struct {
	e    evalFunc
	test func(*frame) bool // replaces e when the value is not assigned
	slot int               // where the value is assigned; -1 for none
}

type rule struct {
	conds []cond
	kind  ruleKind
	ep    *endpointTemplate
	msg   evalFunc
	sub   []*rule
}

func evalRules(rules []*rule, f *frame) (*Endpoint, error, bool) {
next:
	for _, r := range rules {
		for _, c := range r.conds {
			if c.test != nil {
				if !c.test(f) {
					continue next
				}
				continue
			}
			v := c.e(f)
			if !v.truthy() {
				continue next
			}
			if c.slot >= 0 {
				f.slots[c.slot] = v
			}
		}
		switch r.kind {
		case endpointRule:
			ep, err := r.ep.build(f)
			return ep, err, true
		case errorRule:
			return nil, &RuleError{Message: r.msg(f).text()}, true
		default:
			ep, err, ok := evalRules(r.sub, f)
			if !ok {
				return nil, &RuleError{Message: "no rule matched the parameters (a tree rule's rules were exhausted)"}, true
			}
			return ep, err, true
		}
	}
	return nil, nil, false
}

type endpointTemplate struct {
	url     evalFunc
	headers []headerTemplate
	props   func(*frame) model.Node
	// constProps is the properties when they hold no template.
	constProps model.Node
}

type headerTemplate struct {
	name   string
	values []evalFunc
}

func (t *endpointTemplate) build(f *frame) (*Endpoint, error) {
	u := t.url(f)
	if u.kind != StringKind {
		return nil, &RuleError{Message: "the endpoint URL is not a string"}
	}
	ep := &Endpoint{URL: u.s, Properties: t.constProps}
	if t.props != nil {
		ep.Properties = t.props(f)
	}
	if len(t.headers) > 0 {
		ep.Headers = make(map[string][]string, len(t.headers))
		for _, h := range t.headers {
			vals := make([]string, 0, len(h.values))
			for _, e := range h.values {
				vals = append(vals, e(f).text())
			}
			ep.Headers[h.name] = vals
		}
	}
	return ep, nil
}

// Compile compiles the value of a smithy.rules#endpointRuleSet trait. Unknown
// functions, wrong argument counts or types, references to unknown names and
// rule trees deeper than 64 are errors naming the rule.
func Compile(ruleSet model.Node) (*RuleSet, error) {
	if ruleSet.Kind() != model.ObjectNode {
		return nil, fmt.Errorf("endpoint rule set: not an object")
	}
	rs := &RuleSet{byName: map[string]int{}, byBuiltIn: map[string]int{}}
	c := &compiler{scope: map[string]varInfo{}}
	params, _ := ruleSet.Get("parameters")
	if err := rs.compileParams(params, c); err != nil {
		return nil, err
	}
	rules, ok := ruleSet.Get("rules")
	if !ok || rules.Kind() != model.ArrayNode {
		return nil, fmt.Errorf("endpoint rule set: no rules array")
	}
	c.next = len(rs.params)
	c.max = c.next
	var err error
	rs.rules, err = c.rules(rules, "rules", 0)
	if err != nil {
		return nil, err
	}
	rs.nslots = c.max
	return rs, nil
}

func (rs *RuleSet) compileParams(params model.Node, c *compiler) error {
	if params.Kind() != model.ObjectNode {
		return fmt.Errorf("endpoint rule set: parameters must be an object")
	}
	keys := params.Keys()
	sort.Strings(keys)
	for _, name := range keys {
		n, _ := params.Get(name)
		p := Param{Name: name}
		p.Type = strings.ToLower(str(n, "type"))
		if p.Type == "stringarray" {
			p.Type = "stringArray"
		}
		var t typ
		switch p.Type {
		case "string":
			t = tString
		case "boolean":
			t = tBool
		case "stringArray":
			t = tArray
		default:
			return fmt.Errorf("endpoint rule set: parameter %s: unknown type %q", name, str(n, "type"))
		}
		p.BuiltIn = str(n, "builtIn")
		p.Doc = str(n, "documentation")
		if r, ok := n.Get("required"); ok {
			p.Required = r.AsBool()
		}
		if d, ok := n.Get("default"); ok && !d.IsNull() {
			v, err := nodeValue(d)
			if err != nil || !fitsParam(p.Type, v) {
				return fmt.Errorf("endpoint rule set: parameter %s: default %s is not a %s", name, d.JSON(), p.Type)
			}
			p.Default = v
		}
		i := len(rs.params)
		rs.params = append(rs.params, p)
		rs.byName[name] = i
		if p.BuiltIn != "" {
			rs.byBuiltIn[p.BuiltIn] = i
		}
		c.scope[name] = varInfo{slot: i, t: t}
	}
	return nil
}

// nodeValue converts a model node (a parameter value or default) to a Value.
func nodeValue(n model.Node) (Value, error) {
	switch n.Kind() {
	case model.NullNode:
		return Null, nil
	case model.BoolNode:
		return Bool(n.AsBool()), nil
	case model.StringNode:
		return String(n.Str()), nil
	case model.NumberNode:
		i, ok := n.Int64()
		if !ok {
			return Null, fmt.Errorf("number %s is not an integer", n.Literal())
		}
		return Int(int(i)), nil
	case model.ArrayNode:
		items := make([]Value, 0, n.Len())
		for _, e := range n.Items() {
			v, err := nodeValue(e)
			if err != nil {
				return Null, err
			}
			items = append(items, v)
		}
		return Array(items), nil
	default:
		o := make(map[string]Value, n.Len())
		for i := 0; i < n.Len(); i++ {
			k, e := n.Entry(i)
			v, err := nodeValue(e)
			if err != nil {
				return Null, err
			}
			o[k] = v
		}
		return Record(o), nil
	}
}

// NodeValue converts a JSON-like model node (a test's parameter, an input
// member) to a Value.
func NodeValue(n model.Node) (Value, error) { return nodeValue(n) }

func str(n model.Node, key string) string {
	v, _ := n.Get(key)
	return v.Str()
}

// AppendKey appends to b a text that is the same for two parameter sets of
// the same rule set exactly when every value is: Resolve is a pure function
// of the values, so the key can index a cache of its results.
func (p *Params) AppendKey(b []byte) []byte {
	for _, v := range p.vals {
		b = v.appendKey(b)
	}
	return b
}
