package protocol

import (
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// Routing of the REST protocols: a request goes to the operation whose
// @http method and URI pattern it matches (labels, greedy labels, query
// literals); when several match, the most specific pattern wins, by the
// Smithy specification's specificity routing.

// httpRoute is the compiled @http pattern of one operation.
type httpRoute struct {
	p        *opPlan
	method   string
	segments []uriSegment // the plan's path, labels and literals
	query    []queryLiteral
}

// queryLiteral is a key (and value, when the pattern gives one) the query
// string must hold.
type queryLiteral struct {
	key, value string
	hasValue   bool
}

// routeTable is the routes of a service by method, most specific first.
type routeTable struct {
	byMethod map[string][]*httpRoute
	byOp     map[*model.Operation]*httpRoute
}

// compileRoutes compiles the route of every operation of svc once.
func compileRoutes(c *restCodec, svc *model.Service) (*routeTable, error) {
	t := &routeTable{byMethod: map[string][]*httpRoute{}, byOp: map[*model.Operation]*httpRoute{}}
	for _, op := range svc.Operations {
		p, err := c.plans.get(op)
		if err != nil {
			return nil, fmt.Errorf("service %s: %w", svc.Shape.ID, err)
		}
		r := &httpRoute{p: p, method: strings.ToUpper(p.method), segments: p.segments}
		for _, kv := range p.literalQry {
			r.query = append(r.query, queryLiteral{key: unescapeQuery(kv[0]), value: unescapeQuery(kv[1]), hasValue: kv[1] != ""})
		}
		t.byMethod[r.method] = append(t.byMethod[r.method], r)
		t.byOp[op] = r
	}
	for _, rs := range t.byMethod {
		sort.SliceStable(rs, func(i, j int) bool { return moreSpecific(rs[i], rs[j]) })
	}
	return t, nil
}

// moreSpecific reports whether route a is more specific than b: at the
// first position where they differ, a literal beats a label and a label
// beats a greedy label; else the longer path, then the more query
// literals, win.
func moreSpecific(a, b *httpRoute) bool {
	n := min(len(a.segments), len(b.segments))
	for i := 0; i < n; i++ {
		ra, rb := segRank(a.segments[i]), segRank(b.segments[i])
		if ra != rb {
			return ra < rb
		}
	}
	if len(a.segments) != len(b.segments) {
		return len(a.segments) > len(b.segments)
	}
	return len(a.query) > len(b.query)
}

// segRank orders the kinds of segment: literal, label, greedy label.
func segRank(s uriSegment) int {
	switch {
	case s.label == nil:
		return 0
	case !s.greedy:
		return 1
	}
	return 2
}

// requestTarget is a request's path split into raw (still percent-encoded)
// segments and the same decoded once ("" for one that is not valid
// percent-encoding, which no literal matches), and its query pairs
// decoded.
type requestTarget struct {
	segs, decoded []string
	query         [][2]string
}

func parseTarget(path string) (requestTarget, error) {
	var t requestTarget
	p, q, _ := strings.Cut(path, "?")
	p, _, _ = strings.Cut(p, "#")
	q, _, _ = strings.Cut(q, "#")
	p = strings.TrimPrefix(p, "/")
	p = strings.TrimSuffix(p, "/") // a trailing slash is optional
	if p != "" {
		t.segs = strings.Split(p, "/")
		t.decoded = make([]string, len(t.segs))
		for i, seg := range t.segs {
			if d, err := url.PathUnescape(seg); err == nil && d != "" {
				t.decoded[i] = d
			}
		}
	}
	if q != "" {
		for _, kv := range strings.Split(q, "&") {
			if kv == "" {
				continue
			}
			k, v, _ := strings.Cut(kv, "=")
			dk, err := url.QueryUnescape(k)
			if err != nil {
				return t, fmt.Errorf("query key %q: %w", k, err)
			}
			dv, err := url.QueryUnescape(v)
			if err != nil {
				return t, fmt.Errorf("query %s: %w", dk, err)
			}
			t.query = append(t.query, [2]string{dk, dv})
		}
	}
	return t, nil
}

// unescapeQuery decodes a query literal of a pattern, or keeps it as
// written when it is not valid percent-encoding.
func unescapeQuery(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// match matches t against the route and returns the raw text of each
// label (greedy labels with their slashes), indexed like r.segments; ok is
// false when t does not match.
func (r *httpRoute) match(t requestTarget) (labels []string, ok bool) {
	labels = make([]string, len(r.segments))
	if !matchSegments(r.segments, t.segs, t.decoded, labels) {
		return nil, false
	}
	for _, q := range r.query {
		found := false
		for _, kv := range t.query {
			if kv[0] == q.key && (!q.hasValue || kv[1] == q.value) {
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return labels, true
}

// matchSegments matches pattern segments against raw path segments (and
// the same decoded), filling labels with raw text; a greedy label takes
// the longest run (at least one segment) that lets the rest match.
func matchSegments(pat []uriSegment, segs, decoded []string, labels []string) bool {
	for i, sg := range pat {
		if sg.greedy {
			rest := len(pat) - i - 1
			for end := len(segs) - rest; end > 0; end-- {
				if matchSegments(pat[i+1:], segs[end:], decoded[end:], labels[i+1:]) {
					labels[i] = strings.Join(segs[:end], "/")
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if sg.label == nil {
			if decoded[0] != sg.literal {
				return false
			}
		} else {
			if segs[0] == "" {
				return false
			}
			labels[i] = segs[0]
		}
		segs, decoded = segs[1:], decoded[1:]
	}
	return len(segs) == 0
}

// route finds the operation req calls: the most specific route of its
// method that matches its path and query.
func (t *routeTable) route(req *wire.Request) (*httpRoute, error) {
	target, err := parseTarget(req.Path)
	if err != nil {
		return nil, err
	}
	for _, r := range t.byMethod[strings.ToUpper(req.Method)] {
		if _, ok := r.match(target); ok {
			return r, nil
		}
	}
	return nil, errNoRoute
}

var errNoRoute = errors.New("no operation matches the method and path")
