package endpoints

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// The operationContextParams paths are the JMESPath subset the rules-engine
// specification allows: identifiers, sub-expressions, wildcard projections
// over lists ([*]) and map values (*), multi-select lists, the flatten
// operator ([]) and keys(). A small evaluator over model nodes covers it
// without a JMESPath dependency; paths are parsed once per operation.

type pathOp uint8

const (
	opField   pathOp = iota
	opListAll        // [*]: projection over a list
	opValues         // *: projection over a map's values
	opFlatten        // []: flatten, then projection
	opMulti          // [a, b]
	opKeys           // keys(expr)
	opCurrent        // @
)

type pathNode struct {
	op   pathOp
	name string
	subs [][]pathNode
}

// Path is a compiled operationContextParams path.
type Path struct {
	src   string
	steps []pathNode
}

// CompilePath parses an operationContextParams path.
func CompilePath(src string) (*Path, error) {
	p := &pathParser{s: src}
	steps, err := p.expr()
	if err == nil && p.i < len(p.s) {
		err = fmt.Errorf("unexpected %q at offset %d", p.s[p.i:], p.i)
	}
	if err != nil {
		return nil, fmt.Errorf("path %q: %v", src, err)
	}
	return &Path{src: src, steps: steps}, nil
}

func (p *Path) String() string { return p.src }

// root is the input member the path starts at, when it starts at one.
func (p *Path) root() (string, bool) {
	if len(p.steps) == 0 || p.steps[0].op != opField {
		return "", false
	}
	return p.steps[0].name, true
}

// Eval evaluates the path against a document (an operation's input).
func (p *Path) Eval(doc model.Node) model.Node { return evalPath(p.steps, doc) }

type pathParser struct {
	s     string
	i     int
	depth int
}

// maxPathDepth bounds the nesting of multi-select lists and keys().
const maxPathDepth = 32

func (p *pathParser) expr() ([]pathNode, error) {
	if p.depth++; p.depth > maxPathDepth {
		return nil, fmt.Errorf("nested deeper than %d", maxPathDepth)
	}
	defer func() { p.depth-- }()
	var steps []pathNode
	first := true
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ',' || c == ']' || c == ')':
			if first {
				return nil, fmt.Errorf("empty expression at offset %d", p.i)
			}
			return steps, nil
		case c == '[':
			if strings.HasPrefix(p.s[p.i:], "[*]") {
				steps = append(steps, pathNode{op: opListAll})
				p.i += 3
			} else if strings.HasPrefix(p.s[p.i:], "[]") {
				steps = append(steps, pathNode{op: opFlatten})
				p.i += 2
			} else {
				p.i++
				var subs [][]pathNode
				for {
					p.skipSpace()
					sub, err := p.expr()
					if err != nil {
						return nil, err
					}
					subs = append(subs, sub)
					p.skipSpace()
					if p.i >= len(p.s) {
						return nil, fmt.Errorf("unclosed [")
					}
					if p.s[p.i] == ']' {
						p.i++
						break
					}
					if p.s[p.i] != ',' {
						return nil, fmt.Errorf("expected , or ] at offset %d", p.i)
					}
					p.i++
				}
				steps = append(steps, pathNode{op: opMulti, subs: subs})
			}
		case c == '.' && !first:
			p.i++
			if p.i < len(p.s) && p.s[p.i] == '[' {
				continue
			}
			fallthrough
		default:
			if p.i < len(p.s) && p.s[p.i] == '*' {
				steps = append(steps, pathNode{op: opValues})
				p.i++
				break
			}
			if p.i < len(p.s) && p.s[p.i] == '@' {
				steps = append(steps, pathNode{op: opCurrent})
				p.i++
				break
			}
			name := p.ident()
			if name == "" {
				return nil, fmt.Errorf("expected an identifier at offset %d", p.i)
			}
			if p.i < len(p.s) && p.s[p.i] == '(' {
				if name != "keys" {
					return nil, fmt.Errorf("function %s() is not allowed (only keys)", name)
				}
				p.i++
				p.skipSpace()
				sub, err := p.expr()
				if err != nil {
					return nil, err
				}
				p.skipSpace()
				if p.i >= len(p.s) || p.s[p.i] != ')' {
					return nil, fmt.Errorf("unclosed keys(")
				}
				p.i++
				steps = append(steps, pathNode{op: opKeys, subs: [][]pathNode{sub}})
				break
			}
			steps = append(steps, pathNode{op: opField, name: name})
		}
		first = false
		p.skipSpace()
	}
	if first {
		return nil, fmt.Errorf("empty expression")
	}
	return steps, nil
}

func (p *pathParser) skipSpace() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *pathParser) ident() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || isAlnum(c) {
			p.i++
			continue
		}
		break
	}
	if start < len(p.s) && p.s[start] >= '0' && p.s[start] <= '9' {
		p.i = start
		return ""
	}
	return p.s[start:p.i]
}

// evalPath applies steps to v. A projection's right-hand side runs up to the
// next flatten, which applies to the projection's whole result.
func evalPath(steps []pathNode, v model.Node) model.Node {
	for i := 0; i < len(steps); i++ {
		s := steps[i]
		switch s.op {
		case opField:
			if v.Kind() != model.ObjectNode {
				return model.Null()
			}
			v, _ = v.Get(s.name)
		case opCurrent:
		case opMulti:
			if v.IsNull() {
				return v
			}
			out := make([]model.Node, len(s.subs))
			for k, sub := range s.subs {
				out[k] = evalPath(sub, v)
			}
			v = model.Array(out...)
		case opKeys:
			m := evalPath(s.subs[0], v)
			if m.Kind() != model.ObjectNode {
				return model.Null()
			}
			keys := make([]model.Node, 0, m.Len())
			for _, k := range m.Keys() {
				keys = append(keys, model.String(k))
			}
			v = model.Array(keys...)
		case opListAll, opValues, opFlatten:
			var elems []model.Node
			switch {
			case s.op == opValues && v.Kind() == model.ObjectNode:
				for k := 0; k < v.Len(); k++ {
					_, e := v.Entry(k)
					elems = append(elems, e)
				}
			case s.op == opListAll && v.Kind() == model.ArrayNode:
				elems = v.Items()
			case s.op == opFlatten && v.Kind() == model.ArrayNode:
				for _, e := range v.Items() {
					if e.Kind() == model.ArrayNode {
						elems = append(elems, e.Items()...)
					} else {
						elems = append(elems, e)
					}
				}
			default:
				return model.Null()
			}
			end := len(steps)
			for j := i + 1; j < len(steps); j++ {
				if steps[j].op == opFlatten {
					end = j
					break
				}
			}
			out := make([]model.Node, 0, len(elems))
			for _, e := range elems {
				if r := evalPath(steps[i+1:end], e); !r.IsNull() {
					out = append(out, r)
				}
			}
			v = model.Array(out...)
			i = end - 1
		}
	}
	return v
}
