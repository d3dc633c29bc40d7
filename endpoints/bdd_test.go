package endpoints_test

import (
	"encoding/base64"
	"encoding/binary"
	"strconv"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
)

func bddNodes(nodes ...[3]int32) string {
	raw := make([]byte, 0, 12*len(nodes))
	for _, n := range nodes {
		for _, v := range n {
			raw = binary.BigEndian.AppendUint32(raw, uint32(v))
		}
	}
	return base64.StdEncoding.EncodeToString(raw)
}

func compileBDD(t *testing.T, nodes string, root int) (*endpoints.RuleSet, error) {
	t.Helper()
	src := `{"version": "1.1",
	 "parameters": {"Region": {"type": "string", "builtIn": "AWS::Region"},
	   "UseFIPS": {"type": "boolean", "builtIn": "AWS::UseFIPS", "required": true, "default": false}},
	 "conditions": [
	   {"fn": "isSet", "argv": [{"ref": "Region"}]},
	   {"fn": "booleanEquals", "argv": [{"ref": "UseFIPS"}, true]},
	   {"fn": "aws.partition", "argv": [{"ref": "Region"}], "assign": "p"}],
	 "results": [
	   {"type": "endpoint", "conditions": [], "endpoint": {"url": "https://svc-fips.{Region}.{p#dnsSuffix}"}},
	   {"type": "endpoint", "endpoint": {"url": "https://svc.{Region}.{p#dnsSuffix}"}},
	   {"type": "error", "error": "Invalid Configuration: Missing Region"}],
	 "root": ` + strconv.Itoa(root) + `,
	 "nodeCount": ` + strconv.Itoa(len(mustDecode(nodes))/12) + `,
	 "nodes": "` + nodes + `"}`
	n, err := model.ParseJSONNode(src)
	if err != nil {
		t.Fatal(err)
	}
	return endpoints.CompileBDD(n)
}

func mustDecode(s string) []byte {
	b, _ := base64.StdEncoding.DecodeString(s)
	return b
}

// TestBDD: isSet(Region) -> partition -> FIPS? with a complement edge on
// the FIPS node, and the results reached through result references.
func TestBDD(t *testing.T) {
	const r = 100000000
	nodes := bddNodes(
		[3]int32{-1, 1, -1},
		[3]int32{0, 3, r + 3},  // ref 2: isSet(Region)
		[3]int32{2, -4, r + 3}, // ref 3: partition (assigns p); then NOT(fips node)
		[3]int32{1, r + 1, r + 2},
	)
	rs, err := compileBDD(t, nodes, 2)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(region string, fips bool) string {
		p := rs.NewParams()
		if region != "" {
			_ = p.Set("Region", endpoints.String(region))
		}
		_ = p.Set("UseFIPS", endpoints.Bool(fips))
		ep, err := rs.Resolve(p)
		if err != nil {
			return err.Error()
		}
		return ep.URL
	}
	// The complement edge (-4) swaps the FIPS node's branches: FIPS false
	// reaches result 1 (the -fips URL), true result 2.
	for _, c := range []struct {
		region string
		fips   bool
		want   string
	}{
		{"us-west-2", false, "https://svc-fips.us-west-2.amazonaws.com"},
		{"cn-north-1", true, "https://svc.cn-north-1.amazonaws.com.cn"},
		{"", false, "endpoint rules: Invalid Configuration: Missing Region"},
	} {
		if got := resolve(c.region, c.fips); got != c.want {
			t.Errorf("%q fips=%v: %s, want %s", c.region, c.fips, got, c.want)
		}
	}

	// Bad diagrams: errors at compile time, and a cycle is an error at run time.
	bad := map[string]struct {
		nodes string
		root  int
	}{
		"complemented root":      {nodes, -2},
		"node out of range":      {bddNodes([3]int32{-1, 1, -1}, [3]int32{0, 9, 1}), 2},
		"result out of range":    {bddNodes([3]int32{-1, 1, -1}, [3]int32{0, r + 9, 1}), 2},
		"condition out of range": {bddNodes([3]int32{-1, 1, -1}, [3]int32{7, 1, 1}), 2},
		"reference 0":            {bddNodes([3]int32{-1, 1, -1}, [3]int32{0, 0, 1}), 2},
	}
	for name, b := range bad {
		if _, err := compileBDD(t, b.nodes, b.root); err == nil {
			t.Errorf("%s: compiled", name)
		}
	}
	loop, err := compileBDD(t, bddNodes([3]int32{-1, 1, -1}, [3]int32{0, 2, 2}), 2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loop.Resolve(loop.NewParams()); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Fatalf("cycle: %v", err)
	}
}
