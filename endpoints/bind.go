package endpoints

import (
	"fmt"
	"sort"

	"github.com/smithycurl/smithycurl/model"
)

// Trait ids of the rules engine.
const (
	TraitRuleSet       model.ShapeID = "smithy.rules#endpointRuleSet"
	TraitBDD           model.ShapeID = "smithy.rules#endpointBdd"
	TraitTests         model.ShapeID = "smithy.rules#endpointTests"
	TraitClientContext model.ShapeID = "smithy.rules#clientContextParams"
	TraitStaticContext model.ShapeID = "smithy.rules#staticContextParams"
	TraitContextParam  model.ShapeID = "smithy.rules#contextParam"
	TraitOperationCtx  model.ShapeID = "smithy.rules#operationContextParams"
)

// Service is a service's compiled rule set with the parameter bindings of
// its operations. It is immutable and safe for concurrent use.
type Service struct {
	RuleSet *RuleSet
	// ClientParams are the smithy.rules#clientContextParams names and types.
	ClientParams map[string]string
	ops          map[*model.Operation]*Binding
}

// ForService compiles the rule set of svc (its endpointBdd, else its
// endpointRuleSet) and the bindings of every operation. It returns nil and
// no error when the service has neither.
func ForService(m *model.Model, svc *model.Service) (*Service, error) {
	var rs *RuleSet
	var err error
	if node, ok := svc.Shape.Trait(TraitBDD); ok {
		rs, err = CompileBDD(node) // the compact form, preferred when both are given
	} else if node, ok := svc.Shape.Trait(TraitRuleSet); ok {
		rs, err = Compile(node)
	} else {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", svc.Shape.ID, err)
	}
	s := &Service{RuleSet: rs, ClientParams: map[string]string{}, ops: map[*model.Operation]*Binding{}}
	if cc, ok := svc.Shape.Trait(TraitClientContext); ok {
		for i := 0; i < cc.Len(); i++ {
			name, v := cc.Entry(i)
			s.ClientParams[name] = str(v, "type")
		}
	}
	for _, op := range svc.Operations {
		b, err := rs.bind(m, op)
		if err != nil {
			return nil, fmt.Errorf("%s: operation %s: %w", svc.Shape.ID, op.Name, err)
		}
		s.ops[op] = b
	}
	return s, nil
}

// Operation returns the bindings of op (an empty binding for an operation
// of another service).
func (s *Service) Operation(op *model.Operation) *Binding {
	if b, ok := s.ops[op]; ok {
		return b
	}
	return &Binding{}
}

// Binding sets the parameters an operation binds: staticContextParams,
// contextParam members and operationContextParams paths of its input.
type Binding struct {
	static  []staticBinding
	members []memberBinding
	paths   []pathBinding
}

type staticBinding struct {
	idx int
	v   Value
}

type memberBinding struct {
	idx    int
	member string
}

type pathBinding struct {
	idx  int
	path *Path
}

// Roots returns the top-level input members Apply reads; ok is false when
// a path starts elsewhere than at a member (then it reads the whole input).
func (b *Binding) Roots() (names []string, ok bool) {
	for _, mb := range b.members {
		names = append(names, mb.member)
	}
	for _, pb := range b.paths {
		name, ok := pb.path.root()
		if !ok {
			return nil, false
		}
		names = append(names, name)
	}
	return names, true
}

// UsesInput reports whether Apply reads the input.
func (b *Binding) UsesInput() bool { return len(b.members) > 0 || len(b.paths) > 0 }

func (rs *RuleSet) bind(m *model.Model, op *model.Operation) (*Binding, error) {
	b := &Binding{}
	if sc, ok := op.Shape.Trait(TraitStaticContext); ok {
		for i := 0; i < sc.Len(); i++ {
			name, v := sc.Entry(i)
			idx, ok := rs.byName[name]
			if !ok {
				continue // a binding for a parameter the rule set no longer has
			}
			vn, _ := v.Get("value")
			val, err := nodeValue(vn)
			if err != nil || !fitsParam(rs.params[idx].Type, val) {
				return nil, fmt.Errorf("staticContextParams %s: %s is not a %s", name, vn.JSON(), rs.params[idx].Type)
			}
			b.static = append(b.static, staticBinding{idx, val})
		}
	}
	if op.Input != nil {
		for _, mem := range op.Input.Members {
			cp, ok := mem.Traits.Get(TraitContextParam)
			if !ok {
				continue
			}
			if idx, ok := rs.byName[str(cp, "name")]; ok {
				b.members = append(b.members, memberBinding{idx, mem.Name()})
			}
		}
	}
	if oc, ok := op.Shape.Trait(TraitOperationCtx); ok {
		keys := oc.Keys()
		sort.Strings(keys)
		for _, name := range keys {
			v, _ := oc.Get(name)
			idx, ok := rs.byName[name]
			if !ok {
				continue
			}
			p, err := CompilePath(str(v, "path"))
			if err != nil {
				return nil, fmt.Errorf("operationContextParams %s: %w", name, err)
			}
			b.paths = append(b.paths, pathBinding{idx, p})
		}
	}
	return b, nil
}

// Apply sets the operation's parameters in p from input (the operation's
// input in the document form; null when there is none). Values bound from
// the input replace client and built-in values; static ones replace all.
func (b *Binding) Apply(p *Params, input model.Node) error {
	for _, pb := range b.paths {
		v := pb.path.Eval(input)
		if err := p.setFromInput(pb.idx, v, "operationContextParams path "+pb.path.String()); err != nil {
			return err
		}
	}
	for _, mb := range b.members {
		v, _ := input.Get(mb.member)
		if err := p.setFromInput(mb.idx, v, "member "+mb.member); err != nil {
			return err
		}
	}
	for _, sb := range b.static {
		p.vals[sb.idx] = sb.v
	}
	return nil
}

func (p *Params) setFromInput(idx int, n model.Node, what string) error {
	if n.IsNull() {
		return nil
	}
	prm := &p.rs.params[idx]
	v, err := nodeValue(n)
	if err != nil || !fitsParam(prm.Type, v) {
		return fmt.Errorf("endpoint parameter %s from %s: %s is not a %s", prm.Name, what, n.Kind(), prm.Type)
	}
	p.vals[idx] = v
	return nil
}

// HasStatic reports whether the operation has staticContextParams.
func (b *Binding) HasStatic() bool { return len(b.static) > 0 }

// HasRules reports whether a service shape carries endpoint rules
// (smithy.rules#endpointBdd or smithy.rules#endpointRuleSet).
func HasRules(svc *model.Shape) bool {
	return svc.HasTrait(TraitBDD) || svc.HasTrait(TraitRuleSet)
}
