package model

import (
	"fmt"
	"strings"
)

// Pagination is an operation's @paginated trait with the service's merged
// in (Smithy: the operation's settings override the ones it inherits from
// its service). OutputToken and Items are member paths ("Result.Token").
type Pagination struct {
	InputToken  string `json:"inputToken"`
	OutputToken string `json:"outputToken"`
	Items       string `json:"items,omitempty"`    // "" when the trait names none
	PageSize    string `json:"pageSize,omitempty"` // "" when the trait names none
}

// Pagination returns op's pagination in svc, ok false when op is not
// @paginated. A trait that lacks a token or names members op's input and
// output do not have is an error naming the operation.
func (m *Model) Pagination(svc *Service, op *Operation) (p Pagination, ok bool, err error) {
	opTrait, ok := op.Shape.Trait(TraitPaginated)
	if !ok {
		return Pagination{}, false, nil
	}
	svcTrait, _ := svc.Shape.Trait(TraitPaginated)
	get := func(name string) string {
		if v, ok := opTrait.Get(name); ok && v.Str() != "" {
			return v.Str()
		}
		v, _ := svcTrait.Get(name)
		return v.Str()
	}
	p = Pagination{InputToken: get("inputToken"), OutputToken: get("outputToken"), Items: get("items"), PageSize: get("pageSize")}
	if p.InputToken == "" || p.OutputToken == "" {
		return p, true, fmt.Errorf("operation %s: @paginated needs inputToken and outputToken (on the operation or its service)", op.Name)
	}
	for _, name := range []string{p.InputToken, p.PageSize} {
		if _, found := op.Input.Member(name); name != "" && !found {
			return p, true, fmt.Errorf("operation %s: @paginated names input member %s, which the input does not have", op.Name, name)
		}
	}
	for _, path := range []string{p.OutputToken, p.Items} {
		if path == "" {
			continue
		}
		if err := m.checkMemberPath(op.Output, path); err != nil {
			return p, true, fmt.Errorf("operation %s: @paginated output path %s: %v", op.Name, path, err)
		}
	}
	return p, true, nil
}

// checkMemberPath checks that path names a member of s, then of its
// target and so on.
func (m *Model) checkMemberPath(s *Shape, path string) error {
	for _, name := range strings.Split(path, ".") {
		if s == nil {
			return fmt.Errorf("%s is not in a structure", name)
		}
		mem, ok := s.Member(name)
		if !ok {
			return fmt.Errorf("no member %s in %s", name, s.ID)
		}
		s, _ = m.Target(mem)
	}
	return nil
}
