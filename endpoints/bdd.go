package endpoints

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"github.com/smithycurl/smithycurl/model"
)

// The BDD form (smithy.rules#endpointBdd): conditions evaluated along a
// binary decision diagram whose terminals are results (endpoint or error
// rules without conditions). No model of the shared data carries one yet;
// the tests build small diagrams by hand.

const bddResultBase = 100000000

type bddNode struct{ cond, high, low int32 }

type bdd struct {
	conds   []cond
	results []*rule // results[0] is the implicit no-match
	nodes   []bddNode
	root    int32
}

// CompileBDD compiles the value of a smithy.rules#endpointBdd trait. A
// reference out of range, a complemented root or a condition index out of
// range is an error; evaluation stops after as many steps as there are
// nodes, so a diagram with a cycle is an error, not a hang.
func CompileBDD(n model.Node) (*RuleSet, error) {
	if n.Kind() != model.ObjectNode {
		return nil, fmt.Errorf("endpoint BDD: not an object")
	}
	rs := &RuleSet{byName: map[string]int{}, byBuiltIn: map[string]int{}}
	c := &compiler{scope: map[string]varInfo{}}
	params, _ := n.Get("parameters")
	if err := rs.compileParams(params, c); err != nil {
		return nil, err
	}
	c.next = len(rs.params)
	c.max = c.next
	b := &bdd{results: []*rule{nil}}
	conds, _ := n.Get("conditions")
	for i, cn := range conds.Items() {
		at := fmt.Sprintf("endpoint BDD: conditions[%d]", i)
		x, err := c.expr(cn, at, 0)
		if err != nil {
			return nil, err
		}
		cd := cond{e: x.e, test: x.test, slot: -1}
		if name := str(cn, "assign"); name != "" {
			cd.test = nil
			if v, ok := c.scope[name]; ok && v.slot >= len(rs.params) {
				cd.slot = v.slot // the same variable assigned on another path
			} else if ok {
				return nil, fmt.Errorf("%s: assign %q shadows a parameter", at, name)
			} else {
				cd.slot = c.next
				c.scope[name] = varInfo{slot: c.next, t: x.t}
				c.next++
				c.max = c.next
			}
		}
		b.conds = append(b.conds, cd)
	}
	results, _ := n.Get("results")
	for i, rn := range results.Items() {
		at := fmt.Sprintf("results[%d]", i)
		if cs, _ := rn.Get("conditions"); cs.Len() > 0 {
			return nil, fmt.Errorf("endpoint BDD: %s: a result must have no conditions", at)
		}
		if k := str(rn, "type"); k != "endpoint" && k != "error" {
			return nil, fmt.Errorf("endpoint BDD: %s: a result is an endpoint or an error rule, not %q", at, k)
		}
		r, err := c.rule(rn, at, 0)
		if err != nil {
			return nil, err
		}
		b.results = append(b.results, r)
	}
	rs.nslots = c.max
	if err := b.decodeNodes(n); err != nil {
		return nil, err
	}
	rs.bdd = b
	return rs, nil
}

func (b *bdd) decodeNodes(n model.Node) error {
	raw, err := base64.StdEncoding.DecodeString(str(n, "nodes"))
	if err != nil {
		return fmt.Errorf("endpoint BDD: nodes: %v", err)
	}
	if len(raw)%12 != 0 {
		return fmt.Errorf("endpoint BDD: nodes: %d bytes is not a whole number of 12-byte nodes", len(raw))
	}
	count := len(raw) / 12
	if cn, ok := n.Get("nodeCount"); ok {
		if want, _ := cn.Int64(); want != int64(count) {
			return fmt.Errorf("endpoint BDD: nodeCount %d, but nodes hold %d", want, count)
		}
	}
	b.nodes = make([]bddNode, count)
	for i := range b.nodes {
		at := raw[12*i:]
		b.nodes[i] = bddNode{int32(binary.BigEndian.Uint32(at)), int32(binary.BigEndian.Uint32(at[4:])), int32(binary.BigEndian.Uint32(at[8:]))}
	}
	root, _ := n.Get("root")
	r, ok := root.Int64()
	if !ok || r < 0 || r > 1<<31-1 {
		return fmt.Errorf("endpoint BDD: root %s must be a reference that is not complemented", root.JSON())
	}
	b.root = int32(r)
	if err := b.checkRef(b.root); err != nil {
		return fmt.Errorf("endpoint BDD: root: %v", err)
	}
	for i, nd := range b.nodes {
		if i == 0 {
			continue // the terminal node, never referenced
		}
		if nd.cond < 0 || int(nd.cond) >= len(b.conds) {
			return fmt.Errorf("endpoint BDD: node %d: condition %d out of range (%d conditions)", i, nd.cond, len(b.conds))
		}
		for _, ref := range []int32{nd.high, nd.low} {
			if err := b.checkRef(ref); err != nil {
				return fmt.Errorf("endpoint BDD: node %d: %v", i, err)
			}
		}
	}
	return nil
}

func (b *bdd) checkRef(ref int32) error {
	switch {
	case ref == 0:
		return fmt.Errorf("reference 0 is invalid")
	case ref >= bddResultBase:
		if int(ref-bddResultBase) >= len(b.results) {
			return fmt.Errorf("result %d out of range (%d results)", ref-bddResultBase, len(b.results))
		}
	case ref == 1 || ref == -1:
	default:
		i := ref
		if i < 0 {
			i = -i
		}
		if int(i-1) >= len(b.nodes) || i == 1 {
			return fmt.Errorf("node reference %d out of range (%d nodes)", ref, len(b.nodes))
		}
	}
	return nil
}

// eval walks the diagram from the root.
func (b *bdd) eval(f *frame) (*Endpoint, error, bool) {
	ref := b.root
	for steps := 0; steps <= len(b.nodes); steps++ {
		if ref >= bddResultBase {
			r := b.results[ref-bddResultBase]
			if r == nil {
				return nil, nil, false
			}
			return evalRules([]*rule{r}, f)
		}
		if ref == 1 || ref == -1 {
			return nil, nil, false
		}
		neg := ref < 0
		if neg {
			ref = -ref
		}
		nd := b.nodes[ref-1]
		c := &b.conds[nd.cond]
		var truth bool
		if c.test != nil {
			truth = c.test(f)
		} else {
			v := c.e(f)
			if truth = v.truthy(); truth && c.slot >= 0 {
				f.slots[c.slot] = v
			}
		}
		if truth != neg {
			ref = nd.high
		} else {
			ref = nd.low
		}
	}
	return nil, &RuleError{Message: "the endpoint BDD has a cycle"}, true
}
