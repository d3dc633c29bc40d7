package endpoints

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// evalFunc computes one compiled expression.
type evalFunc func(*frame) Value

// typ is an expression's static type, checked when the rule set is compiled.
type typ uint8

const (
	tAny typ = iota // a document: getAttr's result, a record
	tString
	tBool
	tInt
	tArray
	tRecord
)

func (t typ) String() string {
	return [...]string{"document", "string", "boolean", "integer", "array", "record"}[t]
}

// accepts reports whether an argument of type got fits a parameter of type want.
func (t typ) accepts(got typ) bool { return t == tAny || got == tAny || t == got }

type varInfo struct {
	slot int
	t    typ
}

type expr struct {
	e evalFunc
	t typ
	// konst is the value when the expression is a literal.
	konst *Value
	// test, when set, is e's truthiness computed without building a Value
	// (the comparisons and isSet that make up most conditions).
	test func(*frame) bool
	// slot is the parameter or variable slot + 1 when the expression is a
	// plain reference (0 otherwise).
	slot int
}

type compiler struct {
	scope     map[string]varInfo
	next, max int
}

func (c *compiler) rules(list model.Node, where string, depth int) ([]*rule, error) {
	if depth > maxRuleDepth {
		return nil, fmt.Errorf("endpoint rule set: %s: rules nested deeper than %d", where, maxRuleDepth)
	}
	if list.Kind() != model.ArrayNode {
		return nil, fmt.Errorf("endpoint rule set: %s: rules must be an array", where)
	}
	out := make([]*rule, 0, list.Len())
	for i, rn := range list.Items() {
		at := fmt.Sprintf("%s[%d]", where, i)
		r, err := c.rule(rn, at, depth)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (c *compiler) rule(rn model.Node, at string, depth int) (*rule, error) {
	if rn.Kind() != model.ObjectNode {
		return nil, fmt.Errorf("endpoint rule set: %s: a rule must be an object", at)
	}
	if doc := str(rn, "documentation"); doc != "" {
		at += " (" + doc + ")"
	}
	// Variables assigned by this rule's conditions are in scope for the
	// rule and its children only.
	saved := c.next
	var added []string
	defer func() {
		for _, name := range added {
			delete(c.scope, name)
		}
		c.next = saved
	}()
	r := &rule{}
	conds, _ := rn.Get("conditions")
	for i, cn := range conds.Items() {
		cat := fmt.Sprintf("%s: condition %d", at, i)
		if cn.Kind() != model.ObjectNode {
			return nil, fmt.Errorf("endpoint rule set: %s: not an object", cat)
		}
		if _, ok := cn.Get("fn"); !ok {
			return nil, fmt.Errorf("endpoint rule set: %s: no fn", cat)
		}
		x, err := c.expr(cn, cat, 0)
		if err != nil {
			return nil, err
		}
		cd := cond{e: x.e, slot: -1}
		name := str(cn, "assign")
		if name == "" {
			cd.test = x.test
		}
		if name != "" {
			if _, taken := c.scope[name]; taken {
				return nil, fmt.Errorf("endpoint rule set: %s: assign %q shadows a parameter or variable in scope", cat, name)
			}
			cd.slot = c.next
			c.scope[name] = varInfo{slot: c.next, t: x.t}
			added = append(added, name)
			c.next++
			if c.next > c.max {
				c.max = c.next
			}
		}
		r.conds = append(r.conds, cd)
	}
	switch kind := str(rn, "type"); kind {
	case "endpoint":
		r.kind = endpointRule
		en, _ := rn.Get("endpoint")
		ep, err := c.endpoint(en, at)
		if err != nil {
			return nil, err
		}
		r.ep = ep
	case "error":
		r.kind = errorRule
		en, _ := rn.Get("error")
		x, err := c.expr(en, at+": error", 0)
		if err != nil {
			return nil, err
		}
		r.msg = x.e
	case "tree":
		r.kind = treeRule
		sub, _ := rn.Get("rules")
		var err error
		if r.sub, err = c.rules(sub, at+".rules", depth+1); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("endpoint rule set: %s: unknown rule type %q", at, kind)
	}
	return r, nil
}

func (c *compiler) endpoint(en model.Node, at string) (*endpointTemplate, error) {
	if en.Kind() != model.ObjectNode {
		return nil, fmt.Errorf("endpoint rule set: %s: endpoint must be an object", at)
	}
	un, ok := en.Get("url")
	if !ok {
		return nil, fmt.Errorf("endpoint rule set: %s: endpoint has no url", at)
	}
	u, err := c.expr(un, at+": url", 0)
	if err != nil {
		return nil, err
	}
	if !tString.accepts(u.t) {
		return nil, fmt.Errorf("endpoint rule set: %s: url is a %s, not a string", at, u.t)
	}
	t := &endpointTemplate{url: u.e, constProps: model.Object()}
	if hn, ok := en.Get("headers"); ok {
		for i := 0; i < hn.Len(); i++ {
			name, vals := hn.Entry(i)
			h := headerTemplate{name: name}
			for j, vn := range vals.Items() {
				x, err := c.expr(vn, fmt.Sprintf("%s: header %s[%d]", at, name, j), 0)
				if err != nil {
					return nil, err
				}
				h.values = append(h.values, x.e)
			}
			t.headers = append(t.headers, h)
		}
	}
	if pn, ok := en.Get("properties"); ok && pn.Kind() == model.ObjectNode {
		f, dynamic, err := c.props(pn, at+": properties", 0)
		if err != nil {
			return nil, err
		}
		if dynamic {
			t.props = f
		} else {
			t.constProps = f(nil)
		}
	}
	return t, nil
}

// props compiles endpoint properties: nodes whose strings may be templates.
func (c *compiler) props(n model.Node, at string, depth int) (func(*frame) model.Node, bool, error) {
	if depth > maxExprDepth {
		return nil, false, fmt.Errorf("endpoint rule set: %s: properties nested deeper than %d", at, maxExprDepth)
	}
	switch n.Kind() {
	case model.StringNode:
		x, err := c.template(n.Str(), at)
		if err != nil {
			return nil, false, err
		}
		if x.konst != nil {
			return func(*frame) model.Node { return n }, false, nil
		}
		return func(f *frame) model.Node { return model.String(x.e(f).text()) }, true, nil
	case model.ArrayNode:
		items := n.Items()
		fs := make([]func(*frame) model.Node, len(items))
		dynamic := false
		for i, e := range items {
			f, d, err := c.props(e, fmt.Sprintf("%s[%d]", at, i), depth+1)
			if err != nil {
				return nil, false, err
			}
			fs[i], dynamic = f, dynamic || d
		}
		return func(f *frame) model.Node {
			out := make([]model.Node, len(fs))
			for i, g := range fs {
				out[i] = g(f)
			}
			return model.Array(out...)
		}, dynamic, nil
	case model.ObjectNode:
		if _, isRef := n.Get("ref"); isRef && n.Len() == 1 {
			x, err := c.expr(n, at, depth)
			if err != nil {
				return nil, false, err
			}
			return func(f *frame) model.Node { return valueNode(x.e(f)) }, true, nil
		}
		if _, isFn := n.Get("fn"); isFn {
			x, err := c.expr(n, at, depth)
			if err != nil {
				return nil, false, err
			}
			return func(f *frame) model.Node { return valueNode(x.e(f)) }, true, nil
		}
		keys := make([]string, n.Len())
		fs := make([]func(*frame) model.Node, n.Len())
		dynamic := false
		for i := 0; i < n.Len(); i++ {
			k, e := n.Entry(i)
			f, d, err := c.props(e, at+"."+k, depth+1)
			if err != nil {
				return nil, false, err
			}
			keys[i], fs[i], dynamic = k, f, dynamic || d
		}
		return func(f *frame) model.Node {
			b := model.NewObjectBuilder(len(fs))
			for i, g := range fs {
				b.Set(keys[i], g(f))
			}
			return b.Build()
		}, dynamic, nil
	}
	return func(*frame) model.Node { return n }, false, nil
}

// valueNode converts a Value to a model node.
func valueNode(v Value) model.Node {
	switch v.kind {
	case BoolKind:
		return model.Bool(v.b)
	case StringKind:
		return model.String(v.s)
	case IntKind:
		return model.Int(int64(v.n))
	case ArrayKind:
		out := make([]model.Node, len(v.arr()))
		for i, e := range v.arr() {
			out[i] = valueNode(e)
		}
		return model.Array(out...)
	case ObjectKind:
		var b model.ObjectBuilder
		for _, k := range sortedFields(v.obj()) {
			b.Set(k, valueNode(v.obj()[k]))
		}
		return b.Build()
	}
	return model.Null()
}

func konst(v Value, t typ) expr {
	return expr{e: func(*frame) Value { return v }, t: t, konst: &v}
}

// expr compiles a literal, a template string, a reference or a function call.
func (c *compiler) expr(n model.Node, at string, depth int) (expr, error) {
	if depth > maxExprDepth {
		return expr{}, fmt.Errorf("endpoint rule set: %s: expression nested deeper than %d", at, maxExprDepth)
	}
	switch n.Kind() {
	case model.StringNode:
		return c.template(n.Str(), at)
	case model.BoolNode:
		return konst(Bool(n.AsBool()), tBool), nil
	case model.NumberNode:
		i, ok := n.Int64()
		if !ok {
			return expr{}, fmt.Errorf("endpoint rule set: %s: %s is not an integer", at, n.Literal())
		}
		return konst(Int(int(i)), tInt), nil
	case model.ArrayNode:
		items := make([]evalFunc, 0, n.Len())
		for i, e := range n.Items() {
			x, err := c.expr(e, fmt.Sprintf("%s[%d]", at, i), depth+1)
			if err != nil {
				return expr{}, err
			}
			items = append(items, x.e)
		}
		return expr{t: tArray, e: func(f *frame) Value {
			out := make([]Value, len(items))
			for i, g := range items {
				out[i] = g(f)
			}
			return Array(out)
		}}, nil
	case model.ObjectNode:
		if ref, ok := n.Get("ref"); ok {
			return c.ref(ref.Str(), at)
		}
		if fn, ok := n.Get("fn"); ok {
			argv, _ := n.Get("argv")
			args := make([]expr, 0, argv.Len())
			for i, an := range argv.Items() {
				x, err := c.expr(an, fmt.Sprintf("%s: %s argument %d", at, fn.Str(), i+1), depth+1)
				if err != nil {
					return expr{}, err
				}
				args = append(args, x)
			}
			return c.call(fn.Str(), args, at)
		}
		return expr{}, fmt.Errorf("endpoint rule set: %s: an object expression needs ref or fn", at)
	}
	return expr{}, fmt.Errorf("endpoint rule set: %s: a %s is not an expression", at, n.Kind())
}

func (c *compiler) ref(name, at string) (expr, error) {
	v, ok := c.scope[name]
	if !ok {
		return expr{}, fmt.Errorf("endpoint rule set: %s: reference to %q, which is neither a parameter nor a variable in scope", at, name)
	}
	slot := v.slot
	return expr{t: v.t, slot: slot + 1, e: func(f *frame) Value { return f.slots[slot] }}, nil
}

// template compiles a template string: "{name}" and "{name#path}" insert
// values, "{{" and "}}" are literal braces.
func (c *compiler) template(s, at string) (expr, error) {
	if !strings.ContainsAny(s, "{}") {
		return konst(String(s), tString), nil
	}
	var parts []evalFunc
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			v := String(lit.String())
			parts = append(parts, func(*frame) Value { return v })
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '{' && i+1 < len(s) && s[i+1] == '{':
			lit.WriteByte('{')
			i++
		case ch == '}' && i+1 < len(s) && s[i+1] == '}':
			lit.WriteByte('}')
			i++
		case ch == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return expr{}, fmt.Errorf("endpoint rule set: %s: unclosed { in template %q", at, s)
			}
			inner := s[i+1 : i+end]
			name, path, hasPath := strings.Cut(inner, "#")
			x, err := c.ref(name, at)
			if err != nil {
				return expr{}, err
			}
			if hasPath {
				g, err := getAttr(x, path, at)
				if err != nil {
					return expr{}, err
				}
				x = g
			}
			flush()
			parts = append(parts, x.e)
			i += end
		default:
			lit.WriteByte(ch)
		}
	}
	flush()
	if len(parts) == 1 {
		p := parts[0]
		return expr{t: tString, e: func(f *frame) Value {
			v := p(f)
			if v.kind == StringKind {
				return v
			}
			return String(v.text())
		}}, nil
	}
	if len(parts) == 0 {
		return konst(String(""), tString), nil
	}
	size := len(s) + 16*len(parts)
	return expr{t: tString, e: func(f *frame) Value {
		var b strings.Builder
		b.Grow(size)
		for _, p := range parts {
			b.WriteString(p(f).text())
		}
		return String(b.String())
	}}, nil
}

// pathStep is one step of a getAttr path: a key, or an index when key is "".
type pathStep struct {
	key   string
	index int
}

func parsePath(path string) ([]pathStep, error) {
	var steps []pathStep
	for _, part := range strings.Split(path, ".") {
		key, rest, hasIndex := strings.Cut(part, "[")
		if key != "" {
			steps = append(steps, pathStep{key: key})
		} else if !hasIndex {
			return nil, fmt.Errorf("empty key in path %q", path)
		}
		for hasIndex {
			num, after, ok := strings.Cut(rest, "]")
			if !ok {
				return nil, fmt.Errorf("unclosed [ in path %q", path)
			}
			i, err := strconv.Atoi(num)
			if err != nil {
				return nil, fmt.Errorf("index %q in path %q is not an integer", num, path)
			}
			steps = append(steps, pathStep{index: i})
			if after == "" {
				break
			}
			if !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("unexpected %q in path %q", after, path)
			}
			rest = after[1:]
		}
	}
	return steps, nil
}

func getAttr(x expr, path, at string) (expr, error) {
	if x.t != tAny && x.t != tRecord && x.t != tArray {
		return expr{}, fmt.Errorf("endpoint rule set: %s: getAttr on a %s", at, x.t)
	}
	steps, err := parsePath(path)
	if err != nil {
		return expr{}, fmt.Errorf("endpoint rule set: %s: getAttr: %v", at, err)
	}
	src := x.e
	return expr{t: tAny, e: func(f *frame) Value {
		return walk(src(f), steps)
	}}, nil
}

func walk(v Value, steps []pathStep) Value {
	for _, s := range steps {
		switch {
		case s.key != "":
			if v.kind != ObjectKind {
				return Null
			}
			v = v.obj()[s.key]
		default:
			if v.kind != ArrayKind {
				return Null
			}
			i := s.index
			if i < 0 {
				i += len(v.arr())
			}
			if i < 0 || i >= len(v.arr()) {
				return Null
			}
			v = v.arr()[i]
		}
	}
	return v
}
