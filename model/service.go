package model

import (
	"fmt"
	"sort"
	"strings"
)

// Service is the client's view of a service shape: every operation it can
// call, found through the service and its resources, with the service's
// errors merged into each operation's. It is built once per model.
type Service struct {
	Shape      *Shape
	Operations []*Operation // sorted by name
	byName     map[string]*Operation
}

// Operation is one callable operation of a service.
type Operation struct {
	Shape  *Shape
	Name   string
	Input  *Shape   // smithy.api#Unit when the operation has no input
	Output *Shape   // smithy.api#Unit when the operation has no output
	Errors []*Shape // the operation's errors, then the service's
}

// Services returns the ids of the model's service shapes, sorted.
func (m *Model) Services() []ShapeID { return m.ShapesOfType(ServiceType) }

// Service returns the client view of service id.
func (m *Model) Service(id ShapeID) (*Service, error) {
	m.indexOnce.Do(m.buildIndex)
	if s, ok := m.services[id]; ok {
		return s, nil
	}
	var names []string
	for sid := range m.services {
		names = append(names, string(sid))
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("service %s: the model has no services", id)
	}
	return nil, fmt.Errorf("service %s not found; the model's services are: %s", id, strings.Join(names, ", "))
}

func (m *Model) buildIndex() {
	m.services = map[ShapeID]*Service{}
	unit := m.shapes[UnitID]
	for id, s := range m.shapes {
		if s.Type != ServiceType || s.HasTrait(TraitMixin) {
			continue
		}
		svc := &Service{Shape: s, byName: map[string]*Operation{}}
		seen := map[ShapeID]bool{}
		var visit func(ids []ShapeID)
		var visitResource func(r *Shape)
		addOp := func(oid ShapeID) {
			o, ok := m.shapes[oid]
			if !ok || o.Type != OperationType || seen[oid] {
				return
			}
			seen[oid] = true
			op := &Operation{Shape: o, Name: oid.Name(), Input: unit, Output: unit}
			if in, ok := m.shapes[o.Input]; ok {
				op.Input = in
			}
			if out, ok := m.shapes[o.Output]; ok {
				op.Output = out
			}
			for _, eid := range append(append([]ShapeID(nil), o.Errors...), s.Errors...) {
				if e, ok := m.shapes[eid]; ok && !containsShape(op.Errors, e) {
					op.Errors = append(op.Errors, e)
				}
			}
			svc.Operations = append(svc.Operations, op)
			svc.byName[op.Name] = op
			svc.byName[string(oid)] = op
		}
		visit = func(ids []ShapeID) {
			for _, oid := range ids {
				addOp(oid)
			}
		}
		visitResource = func(r *Shape) {
			if seen[r.ID] {
				return
			}
			seen[r.ID] = true
			visit([]ShapeID{r.Create, r.Put, r.Read, r.Update, r.Delete, r.List})
			visit(r.Operations)
			visit(r.CollectionOperations)
			for _, rid := range r.Resources {
				if child, ok := m.shapes[rid]; ok && child.Type == ResourceType {
					visitResource(child)
				}
			}
		}
		visit(s.Operations)
		for _, rid := range s.Resources {
			if r, ok := m.shapes[rid]; ok && r.Type == ResourceType {
				visitResource(r)
			}
		}
		sort.Slice(svc.Operations, func(i, j int) bool { return svc.Operations[i].Name < svc.Operations[j].Name })
		m.services[id] = svc
	}
}

func containsShape(list []*Shape, s *Shape) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Operation returns the operation called name (its shape name or full id).
// When there is none, the error names the closest operation names.
func (s *Service) Operation(name string) (*Operation, error) {
	if op, ok := s.byName[name]; ok {
		return op, nil
	}
	return nil, fmt.Errorf("service %s has no operation %q%s", s.Shape.ID, name, s.suggest(name))
}

func (s *Service) suggest(name string) string {
	type cand struct {
		name string
		dist int
	}
	var cands []cand
	lower := strings.ToLower(name)
	for _, op := range s.Operations {
		d := editDistance(lower, strings.ToLower(op.Name))
		if d <= max(2, len(name)/3) || strings.Contains(strings.ToLower(op.Name), lower) {
			cands = append(cands, cand{op.Name, d})
		}
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})
	var names []string
	for i := 0; i < len(cands) && i < 3; i++ {
		names = append(names, cands[i].name)
	}
	return "; did you mean " + strings.Join(names, ", ") + "?"
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Target returns the shape a member targets.
func (m *Model) Target(mem *Member) (*Shape, bool) {
	s, ok := m.shapes[mem.Target]
	return s, ok
}

// MemberTrait returns trait id of a member, falling back to the member's
// target: the effective value as the HTTP and JSON codecs need it.
func (m *Model) MemberTrait(mem *Member, id ShapeID) (Node, bool) {
	if v, ok := mem.Traits.Get(id); ok {
		return v, true
	}
	if t, ok := m.shapes[mem.Target]; ok {
		return t.Traits.Get(id)
	}
	return Node{}, false
}
